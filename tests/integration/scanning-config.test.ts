// Port lists and credentials through the core against the real sandbox (issue 8): ranges written
// in the editor's T:/U: syntax go in and out one by one, a reversed range is refused before
// anything is sent, and a credential's secret is never answered back.
import { describe, expect, it } from 'vitest'
import { formatPortRanges, parsePortRanges, type PortRangeValue } from '@contract/ports'
import { analystApi, type One, useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'analyst' })

const { api, apiErr } = analystApi(s)

type Stored = PortRangeValue & { id: string }
const rangesOf = (answer: One) => answer.data.attributes.ranges as Stored[]
const parsed = (text: string, existing: PortRangeValue[] = []) => {
  const r = parsePortRanges(text, existing)
  if (!r.ok) throw new Error(`${text}: ${r.problems.map((p) => p.problem).join(' ')}`)
  return r.ranges
}

describe('port list ranges', () => {
  it('adds the ranges of a T:/U: text one by one and deletes one again', async () => {
    const created = await api('port_lists.create', {
      body: { name: 'Web servers', app_type: 'external_scan', ranges: parsed('T:1-1024') },
    })
    const id = created.data.id
    expect(rangesOf(created)).toHaveLength(1)

    let latest = created
    for (const body of parsed('T:8080-8081,U:53', rangesOf(created)))
      latest = await api('port_lists.add_range', { path: { id }, body })
    expect(formatPortRanges(rangesOf(latest))).toBe('T:1-1024,T:8080-8081,U:53')
    expect(latest.data.attributes.port_count).toBe(1024 + 2 + 1)

    const shown = await api('port_lists.show', { path: { id } })
    expect(rangesOf(shown)).toEqual(rangesOf(latest))

    const udp = rangesOf(shown).find((r) => r.protocol === 'udp')!
    const after = await api('port_lists.delete_range', { path: { id, range_id: udp.id } })
    expect(formatPortRanges(rangesOf(after))).toBe('T:1-1024,T:8080-8081')
    expect(after.data.attributes.port_count).toBe(1026)
    expect(rangesOf(await api('port_lists.show', { path: { id } }))).toEqual(rangesOf(after))

    const again = await apiErr('port_lists.delete_range', { path: { id, range_id: udp.id } })
    expect(again.status).toBe(404)
  })

  it('has the service refuse an overlap the editor would flag, changing nothing', async () => {
    const created = await api('port_lists.create', {
      body: { name: 'Mail', app_type: 'external_scan', ranges: parsed('T:25,T:587') },
    })
    const id = created.data.id
    const editor = parsePortRanges('T:20-30', rangesOf(created))
    expect(editor.ok).toBe(false)
    const refused = await apiErr('port_lists.add_range', {
      path: { id },
      body: { start: 20, end: 30, protocol: 'tcp' },
    })
    expect(refused.status).toBe(422)
    expect(
      Object.values(refused.fieldErrors ?? {})
        .flat()
        .join(' '),
    ).toContain('overlaps')
    expect(rangesOf(await api('port_lists.show', { path: { id } }))).toEqual(rangesOf(created))
  })

  it('refuses a reversed range before sending it, with the parser’s sentence', async () => {
    const created = await api('port_lists.create', {
      body: { name: 'Reversed', app_type: 'external_scan' },
    })
    const refused = await apiErr('port_lists.add_range', {
      path: { id: created.data.id },
      body: { start: 1024, end: 1, protocol: 'tcp' },
    })
    expect(refused.code).toBe('VALIDATION')
    expect(JSON.stringify(refused)).toContain('The range starts at 1024 but ends at 1')
    const shown = await api('port_lists.show', { path: { id: created.data.id } })
    expect(rangesOf(shown)).toEqual([])
  })
})

describe('credentials', () => {
  it('never answers a secret back, and keeps it when an update sends none', async () => {
    const created = await api('credentials.create', {
      body: {
        name: 'Linux fleet',
        kind: 'ssh_password',
        username: 'scanner',
        password: 'correct-horse-battery',
      },
    })
    const id = created.data.id
    expect(created.data.attributes.has_secret).toBe(true)
    expect(JSON.stringify(created)).not.toContain('correct-horse-battery')
    const setAt = created.data.attributes.secret_updated_at

    const renamed = await api('credentials.update', {
      path: { id },
      body: { name: 'Linux fleet (prod)', kind: 'ssh_password', username: 'scanner' },
    })
    expect(renamed.data.attributes).toMatchObject({ name: 'Linux fleet (prod)', has_secret: true })
    expect(renamed.data.attributes.secret_updated_at).toBe(setAt)

    const shown = await api('credentials.show', { path: { id } })
    for (const secret of ['password', 'private_key', 'passphrase', 'community'])
      expect(shown.data.attributes).not.toHaveProperty(secret)
  })

  it('refuses a create without the kind’s secret', async () => {
    const refused = await apiErr('credentials.create', {
      body: { name: 'No key', kind: 'ssh_key', username: 'scan' },
    })
    expect(refused.status).toBe(422)
    expect(refused.fieldErrors?.private_key).toBeDefined()
  })
})
