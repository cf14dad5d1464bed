import type { RouteLocationRaw } from 'vue-router'
import { EXPIRING_DAYS, type SinceAnswer, type SinceCount } from '@contract/since'
import { countedWords } from '@/composables/countedNote'
import { detailOf } from './panels'

/** One line of "Since your last visit": its count, where it leads, and what it cannot say. */
export interface SinceLine {
  key: 'newCritical' | 'newHigh' | 'fixed' | 'scansCompleted' | 'expiring'
  label: string
  /** "12", "500+" or "?" (not known). */
  shown: string
  value: number | null
  /** The list the count is about (filtered to them, or sorted with them first); null if none. */
  to: RouteLocationRaw | null
  /** What the list shows where it is not filtered to exactly them (no filter by these times). */
  linkNote: string | null
  /** Why the count is not known, or what it leaves out (the service's or ScanDesk's words). */
  note: string | null
}

/** A count as shown: "?" when not known, "500+" when cut at ScanDesk's cap. */
export function shownCount(c: SinceCount): string {
  if (c.value === null) return '?'
  return c.atLeast ? `${c.value}+` : String(c.value)
}

/** The panel's lines, each with the list it leads to (the lists keep filters in the address). */
export function sinceLines(a: SinceAnswer): SinceLine[] {
  const line = (
    key: SinceLine['key'],
    label: string,
    count: SinceCount,
    to: RouteLocationRaw | null,
    linkNote: string | null,
  ): SinceLine => ({
    key,
    label,
    shown: shownCount(count),
    value: count.value,
    to: count.value ? to : null,
    linkNote: count.value ? linkNote : null,
    note: count.note,
  })
  // Exactly the findings counted: the severity, first seen at or after the moment and before the
  // counts were made (what a later run finds is not theirs), and the count itself, so the list
  // says so when it holds another number now (issue 36 §2).
  const fresh = (severity: 'critical' | 'high', count: SinceCount): RouteLocationRaw => ({
    name: 'vulnerabilities',
    query: {
      severity,
      first_seen_after: a.since,
      first_seen_before: a.until,
      ...countedWords(count.atLeast ? null : count.value, a.until),
    },
  })
  const fixedTo =
    a.fixed.scanIds.length === 1 ? withTab(detailOf('scans', a.fixed.scanIds[0]), 'changes') : null
  return [
    line(
      'newCritical',
      'New critical findings',
      a.newCritical,
      fresh('critical', a.newCritical),
      null,
    ),
    line('newHigh', 'New high findings', a.newHigh, fresh('high', a.newHigh), null),
    line(
      'fixed',
      'Fixed findings',
      a.fixed,
      fixedTo,
      fixedTo
        ? 'Listed under Fixed in the scan’s Changes.'
        : 'The findings list cannot show fixed findings: each scan’s Changes tab lists them.',
    ),
    line(
      'scansCompleted',
      'Scans completed',
      a.scansCompleted,
      { name: 'scans', query: { status: 'completed', sort: '-finished_at' } },
      'The scans list cannot filter by finish time: it opens last finished first.',
    ),
    line(
      'expiring',
      `Exceptions expiring in ${EXPIRING_DAYS} days`,
      a.expiring,
      { name: 'exceptions', query: { state: 'active', sort: 'expires_at' } },
      'The exceptions list cannot filter by expiry: it opens the active ones, soonest first.',
    ),
  ]
}

/** A detail route opened on one of its tabs (`?tab=`). */
function withTab(route: RouteLocationRaw, tab: string): RouteLocationRaw {
  return typeof route === 'object' && 'name' in route ? { ...route, query: { tab } } : route
}
