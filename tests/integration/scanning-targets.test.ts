// Targets through the core against the real sandbox (issue 8): calculate_hosts counts real
// address math with exclusions, and every write refuses what the host syntax refuses with the
// parser's sentence on the field, creating nothing.
import { describe, expect, it } from 'vitest'
import { parseHostEntry } from '@contract/hosts'
import { analystApi, useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'analyst' })

const { api, apiErr } = analystApi(s)

/** The sandbox's own answer to a request, bypassing the client's checks. */
async function raw(method: string, path: string, body?: unknown) {
  const token = s.sandbox.sessionFor('analyst@sandbox.test')
  const res = await fetch(`${s.sandbox.baseUrl}${path}`, {
    method,
    headers: {
      'x-api-key': s.sandbox.apiKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as Record<string, unknown> }
}

const count = async (address: string, exclusions?: string[]) =>
  (
    await api<{ data: { hosts_count: number; excluded_count?: number } }>(
      'targets.calculate_hosts',
      { body: { address, ...(exclusions ? { exclusions } : {}) } },
    )
  ).data

const targetTotal = async () =>
  (await api<{ meta: { pagination: { total_count: number } } }>('targets.list')).meta.pagination
    .total_count

describe('targets.calculate_hosts', () => {
  it.each([
    ['10.0.0.1-10.0.0.10', 10],
    ['10.0.0.1-10', 10],
    ['10.0.0.250-10.0.1.4', 11],
    ['192.0.2.0/24', 254],
    ['192.0.2.0/31', 2],
    ['192.0.2.7', 1],
    ['10.20.0.0/16', 65_534],
    ['web.example.com', 1],
    ['2001:db8::1', 1],
    ['2001:db8::/120', 256],
  ])('counts %s as %i hosts', async (address, hosts) => {
    expect(await count(address)).toEqual({ address, hosts_count: hosts })
  })

  it('subtracts exclusions (outside ones change nothing) and says how many it removed', async () => {
    expect(
      await count('192.0.2.0/24', ['192.0.2.1-192.0.2.10', '192.0.2.5', '198.51.100.1']),
    ).toEqual({ address: '192.0.2.0/24', hosts_count: 244, excluded_count: 10 })
    expect(await count('192.0.2.0/28', ['192.0.2.0/24'])).toMatchObject({
      hosts_count: 0,
      excluded_count: 14,
    })
    expect(await count('web.example.com', ['WEB.example.com.'])).toMatchObject({ hosts_count: 0 })
    expect(await count('192.0.2.0/28', [])).toMatchObject({ hosts_count: 14, excluded_count: 0 })
  })

  it.each([
    ['10.0.0.0/0', 'A /0 range covers every address; use /16 or longer.'],
    ['10.0.0.0/8', 'A /8 range covers 16,777,216 addresses; use /16 or longer.'],
    ['999.1.1.1', '999 is not an octet (0–255).'],
    ['a..b', '"a..b" has an empty label (a dot at the start or two dots in a row).'],
    [
      '10.0.0.10-10.0.0.1',
      'The range ends at 10.0.0.1, before it starts at 10.0.0.10; put the lower address first.',
    ],
    [
      '2001:db8::/64',
      'A /64 IPv6 range covers 2^64 addresses, too many to scan one by one; use /112 or longer, or list the addresses.',
    ],
  ])('refuses %s with a 422 on address that says why', async (address, sentence) => {
    const error = await apiErr('targets.calculate_hosts', { body: { address } })
    expect(error.code).toBe('VALIDATION')
    expect(error.fieldErrors?.address).toContain(sentence)
    // the sandbox itself refuses it too, whatever the client checks first
    const answer = await raw('POST', '/v2/targets/calculate_hosts', { address })
    expect(answer.status).toBe(422)
    expect(answer.json.fields).toEqual({ address: [sentence] })
  })

  it('puts a refused exclusion on its own index', async () => {
    const answer = await raw('POST', '/v2/targets/calculate_hosts', {
      address: '192.0.2.0/24',
      exclusions: ['192.0.2.1', '192.0.2.9-192.0.2.3'],
    })
    expect(answer.status).toBe(422)
    expect(answer.json.fields).toEqual({
      'exclusions.1': [
        'The range ends at 192.0.2.3, before it starts at 192.0.2.9; put the lower address first.',
      ],
    })
  })

  it('refuses more than 10,000 exclusions with one message and sends nothing', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `10.1.${i >> 8}.${i & 255}`)
    const before = s.sandbox.requests.length
    const error = await apiErr('targets.calculate_hosts', {
      body: { address: '10.1.0.0/16', exclusions: many },
    })
    expect(error.code).toBe('VALIDATION')
    expect(error.fieldErrors?.exclusions).toEqual(['holds at most 10,000 entries'])
    expect(s.sandbox.requests.length).toBe(before)
    const answer = await raw('POST', '/v2/targets/calculate_hosts', {
      address: '10.1.0.0/16',
      exclusions: many,
    })
    expect(answer.status).toBe(422)
    expect(answer.json.fields).toEqual({ exclusions: ['holds at most 10,000 entries'] })
    expect(await count('10.1.0.0/16', many.slice(0, 10_000))).toEqual({
      address: '10.1.0.0/16',
      hosts_count: 65_534 - 9_999,
      excluded_count: 9_999,
    })
  })
})

describe('target writes', () => {
  it('store the counted hosts on create and recount on update', async () => {
    const created = await api('targets.create', {
      body: { name: 'Branch range', address: '10.0.5.1-40' },
    })
    expect(created.data.attributes).toMatchObject({ address: '10.0.5.1-40', hosts_count: 40 })
    const updated = await api('targets.update', {
      path: { id: created.data.id },
      body: { address: '10.0.5.0/26' },
    })
    expect(updated.data.attributes).toMatchObject({ hosts_count: 62 })
  })

  it.each(['10.0.0.0/0', '999.1.1.1', 'a..b', '10.0.0.10-10.0.0.1'])(
    'refuse %s on create, update and in the wizard, creating nothing',
    async (address) => {
      const before = await targetTotal()
      const sentence = (parseHostEntry(address) as { problem: string }).problem
      const created = await apiErr('targets.create', { body: { name: 'Bad', address } })
      expect(created.code).toBe('VALIDATION')
      expect(created.fieldErrors?.address).toContain(sentence)

      const updated = await apiErr('targets.update', {
        path: { id: 'tgt-001' },
        body: { address },
      })
      expect(updated.fieldErrors?.address).toContain(sentence)
      expect(
        (await api('targets.show', { path: { id: 'tgt-001' } })).data.attributes.address,
      ).not.toBe(address)

      const scansBefore = (
        await api<{ meta: { pagination: { total_count: number } } }>('scans.list')
      ).meta.pagination.total_count
      const wizard = await raw('POST', '/v2/scans/wizard', {
        name: 'Bad wizard scan',
        new_targets: [{ address: '192.0.2.1' }, { address }],
        scan_profile: 'discovery',
        start_now: true,
      })
      expect(wizard.status).toBe(422)
      expect(wizard.json.fields).toEqual({ 'new_targets.1.address': [sentence] })
      expect(await targetTotal()).toBe(before)
      expect(
        (await api<{ meta: { pagination: { total_count: number } } }>('scans.list')).meta.pagination
          .total_count,
      ).toBe(scansBefore)
    },
  )
})
