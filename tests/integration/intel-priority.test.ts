// intel.priority (issue 37 §3) through the real core over HTTP against the sandbox: a finding of
// the sandbox's read before and after Update now brings in the sandbox's later KEV edition, in
// which its CVE joined KEV; and the account's asset context reaching the rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { ApiCallOutput } from '@contract/channels'
import type { FeedUpdate } from '@contract/intel/packs'
import type { PriorityFinding, PriorityOutputs } from '@contract/intel/priority-channel'
import { addAnalyst, startTestCore, type TestCore } from './core-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'none' })
let t: TestCore
let account: AccountView
beforeAll(async () => {
  t = await startTestCore()
  account = await addAnalyst(t, s.sandbox)
})
afterAll(() => t?.close())

const feedUrl = (name: string) => `${s.sandbox.baseUrl}/feeds/${name}`
async function kevCves(name: string): Promise<Set<string>> {
  const res = await fetch(feedUrl(name))
  expect(res.status).toBe(200)
  const body = (await res.json()) as { vulnerabilities: { cveID: string }[] }
  return new Set(body.vulnerabilities.map((v) => v.cveID))
}
const priority = (findings: PriorityFinding[]) =>
  t.ok<PriorityOutputs['intel.priority']>('intel.priority', { accountId: account.id, findings })

interface Vuln {
  id: string
  attributes: { severity: string; cve_ids: string[]; host_ip?: string | null }
}

/** A finding of the sandbox whose CVE is in the later KEV edition and not in the first. */
async function joiningFinding(): Promise<{ finding: PriorityFinding; cve: string }> {
  const [first, later] = await Promise.all([kevCves('kev.json'), kevCves('kev-later.json')])
  const joined = [...later].filter((c) => !first.has(c))
  expect(joined.length).toBeGreaterThan(0)
  for (const cve of joined.slice(0, 20)) {
    const out = await t.ok<ApiCallOutput>('api.call', {
      accountId: account.id,
      op: 'vulnerabilities.list',
      input: { query: { cve_id: cve, per_page: 5 } },
    })
    const rows = (out.data as { data: Vuln[] }).data
    const v = rows.find((r) => r.attributes.cve_ids.includes(cve))
    if (v)
      return {
        cve,
        finding: {
          id: v.id,
          severity: v.attributes.severity,
          cves: v.attributes.cve_ids,
          hostAddress: v.attributes.host_ip ?? null,
        },
      }
  }
  throw new Error('no finding of the sandbox has a CVE that joins KEV')
}

describe('a finding’s priority', () => {
  it('reads Fix now with a sentence naming KEV once the later KEV edition is in', async () => {
    const { finding, cve } = await joiningFinding()
    const none = await priority([finding])
    expect(none.packs).toEqual({ kev: null, epss: null })
    expect(none.findings[0]!.exploitation).toBe('unknown')
    expect(none.findings[0]!.sentence).toContain('KEV unknown (no catalog imported)')

    await t.ok('intel.setFeed', {
      accountId: account.id,
      feed: 'kev',
      address: feedUrl('kev.json'),
    })
    const first = await t.ok<FeedUpdate>('intel.update', { accountId: account.id, feed: 'kev' })
    const before = await priority([finding])
    expect(before.findings[0]!.kev).toBeNull()
    expect(before.packs.kev).toMatchObject({ sha256: first.pack.sha256, stale: false })

    await t.ok('intel.setFeed', {
      accountId: account.id,
      feed: 'kev',
      address: feedUrl('kev-later.json'),
    })
    const later = await t.ok<FeedUpdate>('intel.update', { accountId: account.id, feed: 'kev' })
    expect(later.status).toBe('updated')
    const after = await priority([finding])
    expect(after.packs.kev).toEqual({
      feed: 'kev',
      edition: later.pack.edition,
      published: later.pack.published,
      sha256: later.pack.sha256,
      importedAt: later.pack.importedAt,
      stale: false,
    })
    const p = after.findings[0]!
    expect(p.id).toBe(finding.id)
    expect(p.kev?.cve).toBe(cve)
    expect(p.exploitation).toBe('active')
    // a low or info finding on an asset not known to be exposed is Fix next; anything else Fix now
    expect(p.tier).toBe(['low', 'info'].includes(finding.severity) ? 'fix-next' : 'fix-now')
    expect(p.sentence).toMatch(/^In CISA KEV since \d{4}-\d{2}-\d{2}/)
    expect(p.sentence).toContain(`catalog ${later.pack.edition}`)
    expect(p.due).toEqual({ at: `${p.kev!.dueDate}T23:59:59.999Z`, by: 'kev' })
  })

  it("the account's asset context reaches the rule: a crown jewel set on the host", async () => {
    const { finding } = await joiningFinding()
    // the later KEV edition is current (the test before): a low finding not known exposed
    const host = { ...finding, severity: 'low', hostAddress: '198.51.100.7' }
    expect((await priority([host])).findings[0]!.tier).toBe('fix-next')
    await t.ok('assets.set', {
      accountId: account.id,
      place: { kind: 'host', address: '198.51.100.7' },
      context: { criticality: 'crown-jewel' },
    })
    const [p] = (await priority([host])).findings
    expect(p!.tier).toBe('fix-now')
    expect(p!.sentence).toContain('on a crown jewel')
  })

  it('refuses more than 200 findings and a malformed CVE, naming the field', async () => {
    const many = Array.from({ length: 201 }, (_, i) => ({
      id: `v-${i}`,
      severity: 'high',
      cves: [],
    }))
    const err = await t.err('intel.priority', { accountId: account.id, findings: many })
    expect(err.code).toBe('VALIDATION')
    const bad = await t.err('intel.priority', {
      accountId: account.id,
      findings: [{ id: 'v-1', severity: 'high', cves: ['not-a-cve'] }],
    })
    expect(bad.code).toBe('VALIDATION')
    expect(JSON.stringify(bad.fieldErrors)).toContain('must be a CVE identifier')
  })
})
