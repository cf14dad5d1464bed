import {
  crossedRanges,
  DUE_SOON_DAYS,
  type DueNotificationKind,
  type PolicySeverity,
  type RemediationPolicyDocument,
} from '@contract/remediation'

/** What the due check needs from the rest of main. */
export interface DueCheckDeps {
  /** The account's remediation policy and whether it asked for notifications. */
  policy(accountId: string): RemediationPolicyDocument
  /** How many open findings the service lists for a query (vulnerabilities.list's total). */
  count(accountId: string, query: Record<string, string>): Promise<number>
  now?: () => number
  /** The least time between two looks at an account (default 15 minutes). */
  everyMs?: number
}

/** One desktop notification of due dates. */
export interface DueNews {
  kind: DueNotificationKind
  title: string
  body: string
}

const DEFAULT_EVERY_MS = 15 * 60_000

/** "3 critical, 1 high" of the counts above zero, worst first. */
function bySeverity(counts: Partial<Record<PolicySeverity, number>>): string {
  return Object.entries(counts)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ')
}

/** The notifications of the findings that crossed a line, one per kind with any. */
export function dueNews(
  crossed: { kind: DueNotificationKind; severity: PolicySeverity; count: number }[],
): DueNews[] {
  const out: DueNews[] = []
  for (const kind of ['findings_overdue', 'findings_due_soon'] as const) {
    const counts: Partial<Record<PolicySeverity, number>> = {}
    for (const c of crossed) if (c.kind === kind) counts[c.severity] = c.count
    const total = Object.values(counts).reduce((a, n) => a + (n ?? 0), 0)
    if (!total) continue
    const findings = total === 1 ? '1 finding' : `${total} findings`
    out.push({
      kind,
      title:
        kind === 'findings_overdue'
          ? `${findings} became overdue`
          : `${findings} will be overdue within ${DUE_SOON_DAYS} days`,
      body: `${bySeverity(counts)} (ScanDesk's due dates, from the account's remediation policy).`,
    })
  }
  return out
}

/**
 * Which findings of an account became overdue, or came within 7 days of their due date, since
 * the last look: one count read per severity and kind over the first-seen range that crossed
 * the line (never the whole list). The first look at an account (or the first after notifications
 * were turned on) only remembers when it looked; a failed look is retried over the whole gap.
 */
export class DueCheck {
  private readonly last = new Map<string, number>()

  constructor(private readonly deps: DueCheckDeps) {}

  async check(accountId: string): Promise<DueNews[]> {
    const { policy, notify } = this.deps.policy(accountId)
    if (!notify) {
      this.last.delete(accountId)
      return []
    }
    const now = (this.deps.now ?? Date.now)()
    const before = this.last.get(accountId)
    if (before === undefined) {
      this.last.set(accountId, now)
      return []
    }
    if (now - before < (this.deps.everyMs ?? DEFAULT_EVERY_MS)) return []
    const crossed = []
    for (const r of crossedRanges(policy, before, now)) {
      const count = await this.deps.count(accountId, {
        severity: r.severity,
        first_seen_after: r.first_seen_after,
        first_seen_before: r.first_seen_before,
        per_page: '1',
      })
      crossed.push({ kind: r.kind, severity: r.severity, count })
    }
    this.last.set(accountId, now)
    return dueNews(crossed)
  }

  /** Forgets an account (signed out or removed): its next look is a first one. */
  forget(accountId: string): void {
    this.last.delete(accountId)
  }
}
