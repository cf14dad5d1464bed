import { beforeEach, describe, expect, it } from 'vitest'
import { EMPTY_CONTEXT, type AssetContextDocument } from '@contract/intel/asset-context'
import type { PriorityFinding } from '@contract/intel/priority-channel'
import { useTestDb } from '../store/test-db'
import { PacksRepo } from './packs-repo'
import { evaluatePriorities } from './priority-eval'

const db = useTestDb('scandesk-priority-')
let packs: PacksRepo
beforeEach(() => void (packs = new PacksRepo(db.db)))

const NOW = new Date('2026-12-01T08:00:00Z')
const origin = (sha: string) => ({
  sha256: sha.repeat(64),
  bytes: 100,
  source: '/tmp/pack',
  importedAt: '2026-11-30T09:00:00.000Z',
})
function saveKev(released = '2026-11-30T12:00:00.000Z', edition = '2026.11.30') {
  return packs.save(
    {
      feed: 'kev',
      catalog: {
        edition,
        released,
        entries: [
          {
            cve: 'CVE-2024-0001',
            dateAdded: '2026-03-02',
            dueDate: '2026-03-23',
            ransomware: true,
            name: 'Pangolin RCE',
          },
        ],
      },
    },
    origin('a'),
  )
}
function saveEpss(scoreDate = '2026-11-30T00:00:00+0000') {
  return packs.save(
    {
      feed: 'epss',
      scores: {
        model: 'v2025.03.14',
        scoreDate,
        scores: new Map([
          ['CVE-2024-0001', { epss: 0.91, percentile: 0.99 }],
          ['CVE-2024-0002', { epss: 0.01, percentile: 0.2 }],
        ]),
      },
    },
    origin('b'),
  )
}

const finding = (over: Partial<PriorityFinding> = {}): PriorityFinding => ({
  id: 'vuln-1',
  severity: 'low',
  cves: ['CVE-2024-0002'],
  hostAddress: '10.9.0.5',
  ...over,
})
const evaluate = (fs: PriorityFinding[], ctx: AssetContextDocument = EMPTY_CONTEXT) =>
  evaluatePriorities(packs, ctx, fs, NOW)

describe('the priority of the findings on screen', () => {
  it('reads unknown without packs: a low finding is lifted to Plan, never Watch', () => {
    const r = evaluate([finding()])
    expect(r.packs).toEqual({ kev: null, epss: null })
    expect(r.findings[0]).toMatchObject({ id: 'vuln-1', tier: 'plan', exploitation: 'unknown' })
    expect(r.findings[0]!.sentence).toContain('KEV unknown (no catalog imported)')
  })

  it('a CVE in the current KEV makes Fix now, names KEV and its due date, with provenance', () => {
    const kev = saveKev()
    saveEpss()
    const r = evaluate([
      finding({ id: 'vuln-kev', severity: 'high', cves: ['CVE-2024-0001'] }),
      finding({ id: 'vuln-low' }),
    ])
    expect(r.packs.kev).toEqual({
      feed: 'kev',
      edition: '2026.11.30',
      published: '2026-11-30T12:00:00.000Z',
      sha256: kev.sha256,
      importedAt: kev.importedAt,
      stale: false,
    })
    expect(r.packs.epss).toMatchObject({ edition: 'v2025.03.14', stale: false })
    const [hot, low] = r.findings
    expect(hot).toMatchObject({
      id: 'vuln-kev',
      tier: 'fix-now',
      due: { at: '2026-03-23T23:59:59.999Z', by: 'kev' },
    })
    expect(hot!.sentence).toMatch(/^In CISA KEV since 2026-03-02 \(ransomware use known\)/)
    expect(hot!.sentence).toContain('due 2026-03-23 by KEV')
    // both packs current, the CVE scored low: not known, a low finding is Watch
    expect(low).toMatchObject({ id: 'vuln-low', tier: 'watch', exploitation: 'not-known' })
  })

  it("keeps the policy's earlier due date and says nothing of KEV's then", () => {
    saveKev()
    const [p] = evaluate([
      finding({ severity: 'high', cves: ['CVE-2024-0001'], policyDue: '2026-03-01T00:00:00Z' }),
    ]).findings
    expect(p!.due).toEqual({ at: '2026-03-01T00:00:00Z', by: 'policy' })
    expect(p!.sentence).not.toContain('by KEV')
  })

  it('a stale pack is marked stale and its silence reads as unknown', () => {
    saveKev('2026-10-01T00:00:00.000Z', '2026.10.01')
    saveEpss('2026-10-01T00:00:00+0000')
    const r = evaluate([finding()])
    expect(r.packs.kev!.stale).toBe(true)
    expect(r.packs.epss!.stale).toBe(true)
    expect(r.findings[0]).toMatchObject({ tier: 'plan', exploitation: 'unknown' })
    expect(r.findings[0]!.sentence).toContain('catalog 2026.10.01 is stale')
  })

  it("uses the current pack only: the later edition's KEV, not the one kept before it", () => {
    saveKev()
    const later = packs.save(
      {
        feed: 'kev',
        catalog: { edition: '2026.12.01', released: '2026-12-01T06:00:00.000Z', entries: [] },
      },
      origin('c'),
    )
    const r = evaluate([finding({ severity: 'high', cves: ['CVE-2024-0001'] })])
    expect(r.packs.kev!.sha256).toBe(later.sha256)
    expect(r.findings[0]!.exploitation).not.toBe('active')
  })

  it("resolves the asset's context: a rule's internet-facing crown jewel raises a likely high", () => {
    saveKev()
    saveEpss()
    const likelyHigh = finding({ severity: 'high', cves: ['CVE-2024-0003'] })
    packs.save(
      {
        feed: 'epss',
        scores: {
          model: 'v2025.03.14',
          scoreDate: '2026-11-30T00:00:00+0000',
          scores: new Map([['CVE-2024-0003', { epss: 0.5, percentile: 0.97 }]]),
        },
      },
      origin('d'),
    )
    expect(evaluate([likelyHigh]).findings[0]!.tier).toBe('fix-next')
    const ctx: AssetContextDocument = {
      rules: [{ match: { kind: 'range', range: '10.9.0.0/16' }, exposure: 'internet-facing' }],
      targets: {},
      hosts: { '10.9.0.5': { criticality: 'crown-jewel' } },
    }
    const [p] = evaluate([likelyHigh], ctx).findings
    expect(p!.tier).toBe('fix-now')
    expect(p!.sentence).toMatch(/on an internet-facing crown jewel$/)
    // another host outside the rule's range and without a setting: no context
    const [other] = evaluate([{ ...likelyHigh, hostAddress: '192.0.2.1' }], ctx).findings
    expect(other!.tier).toBe('fix-next')
  })
})
