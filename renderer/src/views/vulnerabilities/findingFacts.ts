// What a finding's page says first (issue 36 §10): its CVEs, first and last seen, ScanDesk's due
// date and where its exceptions stand, as words. Pure functions; FindingFacts.vue draws them.
import type { DueState } from '@contract/remediation'

/** One exception of the finding, as its list answers it. */
export interface FactException {
  id: string
  state: string
  kind: string
  expires_at: string
}

const KIND: Record<string, string> = {
  accepted_risk: 'Accepted risk',
  false_positive: 'False positive',
}
const kindOf = (kind: string) => KIND[kind] ?? kind.replace(/_/g, ' ')

/** The finding's CVE identifiers, or words saying it has none. */
export function cveText(value: unknown): string {
  const ids = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  return ids.length ? ids.join(', ') : 'None given by the service'
}

/** ScanDesk's due date in words: the day, how late, paused by an exception, or none. */
export function dueText(
  state: DueState | null,
  day: (ms: number) => string,
  severity: unknown,
): { text: string; overdue: boolean } {
  if (!state) return { text: 'Reading the exceptions…', overdue: false }
  if (state.kind === 'paused')
    return { text: 'Paused while an exception is in force', overdue: false }
  if (state.kind === 'none')
    return {
      text: `No due date for ${typeof severity === 'string' ? severity : 'this'} findings in the account’s policy`,
      overdue: false,
    }
  if (state.overdueMs <= 0) return { text: day(state.dueAt), overdue: false }
  const days = Math.floor(state.overdueMs / 86_400_000)
  const late = days === 0 ? 'under a day' : days === 1 ? '1 day' : `${days} days`
  return { text: `${day(state.dueAt)} — overdue by ${late}`, overdue: true }
}

/**
 * Where the finding's exceptions stand: the one in force (else pending, else the latest expired)
 * in words, with how many more there are; "None" without any.
 */
export function exceptionText(
  exceptions: readonly FactException[],
  day: (iso: string) => string,
): string {
  const rank = (e: FactException) => (e.state === 'active' ? 0 : e.state === 'pending' ? 1 : 2)
  const [first, ...rest] = [...exceptions].sort(
    (a, b) => rank(a) - rank(b) || b.expires_at.localeCompare(a.expires_at),
  )
  if (!first) return 'None'
  const what =
    first.state === 'active'
      ? `${kindOf(first.kind)}, in force until ${day(first.expires_at)}`
      : first.state === 'pending'
        ? `${kindOf(first.kind)}, pending (not in force until activated)`
        : `${kindOf(first.kind)}, expired ${day(first.expires_at)}`
  return rest.length ? `${what} (and ${rest.length} more)` : what
}
