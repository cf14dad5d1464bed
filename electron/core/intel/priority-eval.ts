// The intel.priority channel's evaluation in main (issue 37 §3): the pure rule (contract
// priority.ts) applied to the findings the renderer has on screen, with the current KEV and EPSS
// packs (only the rows of the CVEs asked, read by key) and the account's asset context resolved
// for each finding's host and target. A missing pack is null and a stale one is marked: the rule
// reads both as unknown, never as low risk.
import type { AssetContextDocument } from '@contract/intel/asset-context'
import { resolveAssetContext } from '@contract/intel/asset-context'
import { isStale, type Feed, type IntelPack } from '@contract/intel/packs'
import type {
  FindingPriority,
  PackProvenance,
  PriorityFinding,
  PriorityOutputs,
} from '@contract/intel/priority-channel'
import { prioritize, type PriorityInput } from '@contract/intel/priority'
import type { PacksRepo } from './packs-repo'

const provenance = (pack: IntelPack, now: number): PackProvenance => ({
  feed: pack.feed,
  edition: pack.edition,
  published: pack.published,
  sha256: pack.sha256,
  importedAt: pack.importedAt,
  stale: isStale(pack, now),
})

/** The priority of each finding of `findings` with the current packs and `context`. */
export function evaluatePriorities(
  packs: Pick<PacksRepo, 'list' | 'kevFor' | 'epssFor'>,
  context: AssetContextDocument,
  findings: readonly PriorityFinding[],
  now: Date,
): PriorityOutputs['intel.priority'] {
  const at = now.getTime()
  const kept = packs.list()
  const current = (feed: Feed) => kept.find((p) => p.feed === feed && p.current) ?? null
  const kevPack = current('kev')
  const epssPack = current('epss')
  const cves = [...new Set(findings.flatMap((f) => f.cves))]
  const kevSource = kevPack ? provenance(kevPack, at) : null
  const epssSource = epssPack ? provenance(epssPack, at) : null
  const kevRows = kevPack && cves.length ? packs.kevFor(kevPack.id, cves) : new Map()
  const epssRows = epssPack && cves.length ? packs.epssFor(epssPack.id, cves) : new Map()
  const kev: PriorityInput['kev'] = kevSource
    ? {
        source: { edition: kevSource.edition, date: kevSource.published, stale: kevSource.stale },
        entry: (cve) => kevRows.get(cve),
      }
    : null
  const epss: PriorityInput['epss'] = epssSource
    ? {
        source: {
          edition: epssSource.edition,
          date: epssSource.published,
          stale: epssSource.stale,
        },
        score: (cve) => epssRows.get(cve),
      }
    : null

  const out: FindingPriority[] = findings.map((f) => {
    const resolved = resolveAssetContext(context, {
      targetId: f.targetId ?? null,
      hostAddress: f.hostAddress ?? null,
      hostName: f.hostName ?? null,
      tags: f.tags ?? [],
    })
    const p = prioritize({
      severity: f.severity,
      cves: f.cves,
      kev,
      epss,
      criticality: resolved.criticality?.value ?? null,
      exposure: resolved.exposure?.value ?? null,
      policyDue: f.policyDue ?? null,
    })
    return { id: f.id, ...p }
  })
  return {
    packs: { kev: kevSource, epss: epssSource },
    findings: out,
    at: now.toISOString(),
  }
}
