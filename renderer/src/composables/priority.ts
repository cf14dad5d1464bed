// A finding's priority (issue 37 §3) as the screens ask main for it (intel.priority): the facts a
// row already holds (severity, CVEs, host address; ScanDesk's policy due date where known) go to
// main, which evaluates the rule with the current packs and the account's asset context.
// A finding of the service names neither its target nor its host's name: rules on those (name
// patterns, target tags) and target settings reach it once the local index holds them.
import { CVE_ID } from '@contract/intel/kev'
import type { FindingPriority, PriorityFinding } from '@contract/intel/priority-channel'
import { TIER_LABEL } from '@contract/intel/priority'
import type { ChannelOutput } from '@contract/channels'
import { request } from '@/bridge/bridge'

export type PriorityAnswer = ChannelOutput<'intel.priority'>

/** A row's facts as intel.priority takes them, or null when it has no severity. */
export function priorityFindingOf(
  id: string,
  a: Record<string, unknown>,
  policyDue?: string | null,
): PriorityFinding | null {
  if (typeof a.severity !== 'string') return null
  const cves = Array.isArray(a.cve_ids)
    ? a.cve_ids
        .filter((c): c is string => typeof c === 'string')
        .map((c) => c.trim().toUpperCase())
        .filter((c) => CVE_ID.test(c))
    : []
  return {
    id,
    severity: a.severity.slice(0, 16),
    cves: [...new Set(cves)].slice(0, 100),
    ...(typeof a.host_ip === 'string' && a.host_ip ? { hostAddress: a.host_ip.slice(0, 45) } : {}),
    ...(policyDue ? { policyDue } : {}),
  }
}

/** The priorities of `findings` for `accountId`, or why not (in words). */
export async function askPriorities(
  accountId: string,
  findings: PriorityFinding[],
): Promise<{ ok: true; data: PriorityAnswer } | { ok: false; message: string }> {
  const r = await request('intel.priority', { accountId, findings })
  return r.ok ? { ok: true, data: r.data } : { ok: false, message: r.error.message }
}

/** "Fix now", or "Unknown" where the rule knows nothing of the exploitation. */
export function priorityLabel(p: FindingPriority): string {
  return p.exploitation === 'unknown' ? 'Unknown' : TIER_LABEL[p.tier]
}

/** The tooltip of a priority: its sentence, with the tier missing data lifted it to. */
export function priorityTitle(p: FindingPriority): string {
  return p.exploitation === 'unknown'
    ? `${TIER_LABEL[p.tier]} while exploitation is unknown: ${p.sentence}`
    : p.sentence
}

/** The tag type of each tier (Fix now the most urgent look). */
export const TIER_TAG = {
  'fix-now': 'danger',
  'fix-next': 'warning',
  plan: 'primary',
  watch: 'info',
} as const
