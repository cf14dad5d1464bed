// Remediation due dates (issue 20 §1): ScanDesk's own facts, not the service's. A policy per
// account gives the days allowed per severity; a finding is due that many 24-hour days after it was
// first seen. Shared by main (the watcher) and the renderer (columns, filters, the Overdue panel).
import { z } from 'zod'
import { accountId } from './accounts'

/** Severities a policy may give days to (info never has a due date). */
export const POLICY_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const
export type PolicySeverity = (typeof POLICY_SEVERITIES)[number]

/** A day as ScanDesk counts remediation time: 24 hours, whatever the time zone or the calendar. */
export const DAY_MS = 86_400_000
/** The most days a policy may allow (ten years). */
export const MAX_POLICY_DAYS = 3650

const days = z
  .number()
  .int('must be a whole number of days')
  .min(1, 'must be at least 1 day')
  .max(MAX_POLICY_DAYS, `must be at most ${MAX_POLICY_DAYS} days`)

/** Days allowed per severity; null: no due date for that severity. */
export const remediationPolicy = z.strictObject({
  critical: days.nullable(),
  high: days.nullable(),
  medium: days.nullable(),
  low: days.nullable(),
})
export type RemediationPolicy = z.infer<typeof remediationPolicy>

/**
 * The defaults (docs/decisions.md says where each comes from): critical 15 (PCI DSS 6.3.3 asks
 * critical patches within one month; CISA BOD 19-02 gives 15 days), high 30 (BOD 19-02), medium
 * 90 (the PCI quarterly scan cycle, 11.3), low 180.
 */
export const DEFAULT_POLICY: RemediationPolicy = { critical: 15, high: 30, medium: 90, low: 180 }

/** What an account keeps (one sealed draft of kind 'remediation-policy', key ''). */
export const remediationPolicyDocument = z.strictObject({
  policy: remediationPolicy,
  /** Desktop notifications when findings become overdue or will be within 7 days. */
  notify: z.boolean().default(false),
})
export type RemediationPolicyDocument = z.infer<typeof remediationPolicyDocument>

/** The days allowed for `severity` (null: none; info never has any). */
export function daysFor(policy: RemediationPolicy, severity: string): number | null {
  return (POLICY_SEVERITIES as readonly string[]).includes(severity)
    ? policy[severity as PolicySeverity]
    : null
}

/** An exception as the clock needs it (exceptions.list attributes). */
export interface ClockException {
  state: string
  activated_at?: string | null
  expires_at: string
}

/** A finding as the clock needs it. */
export interface ClockFinding {
  severity: string
  first_seen_at: string
}

/** Where a finding stands: no due date, paused by an active exception, or due at an instant. */
export type DueState =
  { kind: 'none' } | { kind: 'paused' } | { kind: 'due'; dueAt: number; overdueMs: number }

const ms = (iso: string | null | undefined): number | null => {
  if (!iso) return null
  const t = Date.parse(iso)
  return Number.isNaN(t) ? null : t
}

/**
 * Milliseconds the clock stood still for a finding first seen at `from`, until `now`: the union
 * of its exceptions' in-force periods (activated → expiry, cut to [from, now]). Overlapping
 * exceptions count once.
 */
export function pausedMs(from: number, now: number, exceptions: readonly ClockException[]): number {
  const spans: [number, number][] = []
  for (const e of exceptions) {
    const start = ms(e.activated_at)
    const end = ms(e.expires_at)
    if (start === null || end === null || e.state === 'pending') continue
    const a = Math.max(start, from)
    const b = Math.min(end, now)
    if (b > a) spans.push([a, b])
  }
  spans.sort((x, y) => x[0] - y[0])
  let total = 0
  let cur: [number, number] | null = null
  for (const s of spans) {
    if (cur && s[0] <= cur[1]) cur[1] = Math.max(cur[1], s[1])
    else {
      if (cur) total += cur[1] - cur[0]
      cur = [s[0], s[1]]
    }
  }
  if (cur) total += cur[1] - cur[0]
  return total
}

/** An exception in force at `now`: active and not yet expired. */
export function inForce(e: ClockException, now: number): boolean {
  const end = ms(e.expires_at)
  const start = ms(e.activated_at)
  return e.state === 'active' && end !== null && end > now && (start === null || start <= now)
}

/**
 * A finding's due state at `now`. Due = first seen + the severity's days (24-hour days), plus the
 * time an exception held the clock; while an exception is in force the clock is paused (never
 * overdue). `overdueMs` is how far past due (negative: time left).
 */
export function dueState(
  finding: ClockFinding,
  policy: RemediationPolicy,
  now: number,
  exceptions: readonly ClockException[] = [],
): DueState {
  const d = daysFor(policy, finding.severity)
  const first = ms(finding.first_seen_at)
  if (d === null || first === null) return { kind: 'none' }
  if (exceptions.some((e) => inForce(e, now))) return { kind: 'paused' }
  const dueAt = first + d * DAY_MS + pausedMs(first, now, exceptions)
  return { kind: 'due', dueAt, overdueMs: now - dueAt }
}

/** Whole days a finding is overdue (0 when less than a day late; null when not overdue). */
export function overdueDays(state: DueState): number | null {
  return state.kind === 'due' && state.overdueMs > 0 ? Math.floor(state.overdueMs / DAY_MS) : null
}

/** The most days a "due within" filter looks ahead. */
export const MAX_DUE_WITHIN = 365

/** Which findings a due filter keeps: past due, or due from now to now + N days. */
export type DueFilter = { kind: 'overdue' } | { kind: 'due_within'; days: number }

/**
 * The first-seen range the service is asked for (vulnerabilities.list: `first_seen_before` is
 * exclusive, `first_seen_after` inclusive) so that it returns the findings of `severity` that the
 * filter keeps at `now` by first seen alone (an exception's pause is not the service's to know).
 * Null when the severity has no due date (nothing can be overdue).
 */
export function firstSeenRange(
  filter: DueFilter,
  severity: string,
  policy: RemediationPolicy,
  now: number,
): { first_seen_before: string; first_seen_after?: string } | null {
  const d = daysFor(policy, severity)
  if (d === null) return null
  // Overdue: now > first + d, i.e. first < now − d. Due within N: now ≤ first + d < now + N.
  const line = now - d * DAY_MS
  if (filter.kind === 'overdue') return { first_seen_before: new Date(line).toISOString() }
  return {
    first_seen_after: new Date(line).toISOString(),
    first_seen_before: new Date(line + filter.days * DAY_MS).toISOString(),
  }
}

/**
 * Whether `filter` keeps a finding in `state` at `now`: ScanDesk's one rule, which the Due and
 * Overdue columns, the list's due filters and the Overdue panel's counts all follow (a finding
 * paused by an exception is neither overdue nor due soon).
 */
export function keptByState(filter: DueFilter, s: DueState, now: number): boolean {
  if (s.kind !== 'due') return false
  if (filter.kind === 'overdue') return s.overdueMs > 0
  return s.overdueMs <= 0 && s.dueAt < now + filter.days * DAY_MS
}

/**
 * Whether `filter` keeps a finding at `now` under the rule (keptByState), its exceptions' pauses
 * included. Without exceptions it is the first-seen test the service is asked (firstSeenRange).
 */
export function keptByFilter(
  filter: DueFilter,
  finding: ClockFinding,
  policy: RemediationPolicy,
  now: number,
  exceptions: readonly ClockException[] = [],
): boolean {
  return keptByState(filter, dueState(finding, policy, now, exceptions), now)
}

/**
 * Whether the service's first-seen range for `filter`, asked at `askedAt`, returns a finding that
 * the rule at `now` keeps by first seen but not once its exceptions are counted: a row that a due
 * filter's list leaves out (an exception paused it, or its pause moved the due date).
 */
export function pausedOut(
  filter: DueFilter,
  finding: ClockFinding,
  policy: RemediationPolicy,
  askedAt: number,
  now: number,
  exceptions: readonly ClockException[],
): boolean {
  return (
    keptByFilter(filter, finding, policy, askedAt) &&
    keptByFilter(filter, finding, policy, now) &&
    !keptByFilter(filter, finding, policy, now, exceptions)
  )
}

/**
 * How many of `held` (findings with exceptions, and those exceptions) of `severity` are pausedOut:
 * what a due filter's list and the Overdue panel's count take off the service's total.
 */
export function leftOutByPauses(
  filter: DueFilter,
  severity: string,
  held: readonly { finding: ClockFinding; exceptions: readonly ClockException[] }[],
  policy: RemediationPolicy,
  askedAt: number,
  now: number,
): number {
  return held.filter(
    ({ finding, exceptions }) =>
      finding.severity === severity && pausedOut(filter, finding, policy, askedAt, now, exceptions),
  ).length
}

/** An account's policy as main answers it: `saved` false means the defaults, never saved. */
export type RemediationPolicyView = RemediationPolicyDocument & {
  saved: boolean
  savedAt: string | null
}

/** Inputs of the remediation policy channels (checked in main before any work). */
export const remediationInputs = {
  'remediation.get': z.strictObject({ accountId }),
  'remediation.set': z.strictObject({ accountId, policy: remediationPolicy, notify: z.boolean() }),
}

/** Outputs of the remediation policy channels. */
export interface RemediationOutputs {
  'remediation.get': RemediationPolicyView
  'remediation.set': RemediationPolicyView
}

/** ScanDesk's own desktop notification kinds of due dates (muted like the service's kinds). */
export const DUE_NOTIFICATION_KINDS = ['findings_overdue', 'findings_due_soon'] as const
export type DueNotificationKind = (typeof DUE_NOTIFICATION_KINDS)[number]
/** How far ahead "will be overdue soon" looks (days). */
export const DUE_SOON_DAYS = 7

/**
 * The first-seen ranges of the findings of each severity that crossed a line between `before`
 * and `now`: became overdue (`findings_overdue`), or came within 7 days of their due date
 * (`findings_due_soon`). Asked of the service, one read each, to notify of what changed since the
 * watcher's last look.
 */
export function crossedRanges(
  policy: RemediationPolicy,
  before: number,
  now: number,
): {
  kind: DueNotificationKind
  severity: PolicySeverity
  first_seen_after: string
  first_seen_before: string
}[] {
  const out: ReturnType<typeof crossedRanges> = []
  if (now <= before) return out
  for (const severity of POLICY_SEVERITIES) {
    const d = policy[severity]
    if (d === null) continue
    for (const [kind, ahead] of [
      ['findings_overdue', 0],
      ['findings_due_soon', DUE_SOON_DAYS],
    ] as const) {
      const shift = (ahead - d) * DAY_MS
      out.push({
        kind,
        severity,
        first_seen_after: new Date(before + shift).toISOString(),
        first_seen_before: new Date(now + shift).toISOString(),
      })
    }
  }
  return out
}
