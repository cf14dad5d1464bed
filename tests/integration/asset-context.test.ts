// Asset context (issue 37 §2) through the real core, two accounts signed in to the sandbox over
// HTTP: rules and settings on the service's own targets, resolved as the priority will read them;
// exported as a file (browser mode's typed path, judged like every other) and imported to both
// accounts at once; a malformed file refused with its field named and both accounts unchanged;
// nothing of it in plain text in the data folder.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { ApiCallOutput } from '@contract/channels'
import {
  resolveAssetContext,
  sourceText,
  type AssetContextDocument,
  type AssetRule,
} from '@contract/intel/asset-context'
import { addAnalyst, bytesOf, startTestCore, type TestCore } from './core-helpers'
import { recordingHost, tempFolder } from './exports-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'none' })

let root: string
let home: string
let t: TestCore
let a: AccountView
let b: AccountView

interface Target {
  id: string
  attributes: { address: string; tags: string[] }
}
let target: Target

beforeAll(async () => {
  root = tempFolder('scandesk-assets-')
  home = path.join(root, 'home')
  fs.mkdirSync(home)
  const host = recordingHost()
  host.userFolders = () => [home]
  t = await startTestCore({ mode: 'browser', host, dataDir: path.join(root, 'data') })
  a = await addAnalyst(t, s.sandbox, { label: 'Customer A' })
  b = await addAnalyst(t, s.sandbox, {
    label: 'Customer B',
    username: 'manager@sandbox.test',
    color: '#aa3300',
  })
  const out = await t.ok<ApiCallOutput>('api.call', {
    accountId: a.id,
    op: 'targets.list',
    input: { query: { per_page: 50 } },
  })
  const rows = (out.data as { data: Target[] }).data
  target = rows.find((r) => r.attributes.tags.length > 0)!
  expect(target).toBeDefined()
})
afterAll(async () => {
  await t?.close()
  fs.rmSync(root, { recursive: true, force: true })
})

const get = (accountId: string) => t.ok<AssetContextDocument>('assets.get', { accountId })

describe('asset context through the core', () => {
  it('sets rules and a target’s context and resolves a real target of the service', async () => {
    const tag = target.attributes.tags[0]!
    const rules: AssetRule[] = [
      { match: { kind: 'range', range: '2001:db8::/32' }, exposure: 'internal' },
      {
        match: { kind: 'tag', tag: tag.toUpperCase() },
        owner: 'Pangolin ops',
        exposure: 'internet-facing',
      },
    ]
    await t.ok('assets.setRules', { accountId: a.id, rules })
    const doc = await t.ok<AssetContextDocument>('assets.set', {
      accountId: a.id,
      place: { kind: 'target', id: target.id },
      context: { criticality: 'crown-jewel' },
    })
    expect(doc).toEqual(await get(a.id))
    const got = resolveAssetContext(doc, {
      targetId: target.id,
      targetAddress: target.attributes.address,
      tags: target.attributes.tags,
    })
    expect(got.criticality).toMatchObject({ value: 'crown-jewel', source: { kind: 'target' } })
    expect(got.owner!.value).toBe('Pangolin ops')
    expect(sourceText(got.exposure!.source, 'target')).toBe(`by rule 2: tag ${tag.toUpperCase()}`)
    // A host is set by its address, written the usual way.
    const withHost = await t.ok<AssetContextDocument>('assets.set', {
      accountId: a.id,
      place: { kind: 'host', address: '2001:DB8:0::7' },
      context: { owner: 'Tapir desk' },
    })
    expect(withHost.hosts).toEqual({ '2001:db8::7': { owner: 'Tapir desk' } })
    expect(await get(b.id)).toEqual({ rules: [], targets: {}, hosts: {} })
  })

  it('refuses a rule with its field named and keeps the rules as they were', async () => {
    const before = await get(a.id)
    const err = await t.err('assets.setRules', {
      accountId: a.id,
      rules: [{ match: { kind: 'range', range: '10.1.2.3/8' }, owner: 'x' }],
    })
    expect(err.code).toBe('VALIDATION')
    expect(err.fieldErrors?.['rules.0.match.range']).toEqual([
      'has bits set past its /8: the range is 10.0.0.0/8',
    ])
    expect(await get(a.id)).toEqual(before)
  })

  it('exports a versioned file and imports it to two accounts at once', async () => {
    const file = path.join(home, 'standard.json')
    expect(await t.ok('assets.export', { accountId: a.id })).toEqual({
      saved: false,
      suggestedPath: expect.stringMatching(/Asset context - Customer A - \d{4}-\d{2}-\d{2}\.json$/),
    })
    expect(await t.ok('assets.export', { accountId: a.id, path: file })).toEqual({
      saved: true,
      path: file,
    })
    const written = JSON.parse(fs.readFileSync(file, 'utf8'))
    const mine = await get(a.id)
    expect(written).toEqual({ scandeskAssetContext: 1, ...mine })

    await t.ok('assets.set', {
      accountId: b.id,
      place: { kind: 'target', id: 'tgt-b-own' },
      context: { exposure: 'internal' },
    })
    expect(await t.ok('assets.import', { accountIds: [a.id, b.id], path: file })).toEqual({
      imported: true,
      accounts: 2,
      rules: 2,
      targets: 1,
      hosts: 1,
    })
    const theirs = await get(b.id)
    expect(theirs.rules).toEqual(mine.rules)
    expect(theirs.targets).toEqual({ ...mine.targets, 'tgt-b-own': { exposure: 'internal' } })
    expect(await get(a.id)).toEqual(mine)
  })

  it.each([
    [
      'a rule whose range is not one',
      (f: Record<string, unknown>) => {
        ;(f.rules as { match: { range: string } }[])[0]!.match.range = '10.0.0.0/40'
      },
      /^rules\[0\]\.match\.range has a prefix length that is not 0 to 32\. Nothing was imported\.$/,
    ],
    [
      'another format version',
      (f: Record<string, unknown>) => void (f.scandeskAssetContext = 2),
      /^scandeskAssetContext must be 1/,
    ],
    [
      'a host that is not an address',
      (f: Record<string, unknown>) => void (f.hosts = { 'db.example.com': { owner: 'x' } }),
      /^hosts\["db\.example\.com"\] is not an IPv4 or IPv6 address/,
    ],
  ])('refuses %s, naming the field, and changes neither account', async (_what, spoil, said) => {
    const before = [await get(a.id), await get(b.id)]
    const good = JSON.parse(fs.readFileSync(path.join(home, 'standard.json'), 'utf8'))
    spoil(good)
    const bad = path.join(home, 'bad.json')
    fs.writeFileSync(bad, JSON.stringify(good, null, 2))
    const err = await t.err('assets.import', { accountIds: [a.id, b.id], path: bad })
    expect(err.code).toBe('VALIDATION')
    expect(err.message).toMatch(said)
    expect([await get(a.id), await get(b.id)]).toEqual(before)
  })

  it('refuses a file cut short with its line, and a path outside the user’s folders', async () => {
    const text = fs.readFileSync(path.join(home, 'standard.json'), 'utf8')
    const cut = path.join(home, 'cut.json')
    fs.writeFileSync(cut, text.slice(0, text.indexOf('"targets"')) + '"targets": {,')
    const err = await t.err('assets.import', { accountIds: [b.id], path: cut })
    expect(err.message).toMatch(/^The file is not valid JSON at line \d+\. Nothing was imported\.$/)
    const outside = path.join(root, 'elsewhere.json')
    fs.writeFileSync(outside, text)
    expect((await t.err('assets.import', { accountIds: [b.id], path: outside })).code).toBe(
      'FORBIDDEN',
    )
  })

  it('keeps nothing of it in plain text in the data folder', async () => {
    const bytes = bytesOf(t.dataDir)
    for (const text of ['Pangolin ops', 'Tapir desk', '2001:db8::', target.id, 'tgt-b-own'])
      expect(bytes.includes(Buffer.from(text)), text).toBe(false)
  })
})
