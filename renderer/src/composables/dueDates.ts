import { computed, watch } from 'vue'
import { useRoute, useRouter, type LocationQuery } from 'vue-router'
import {
  daysFor,
  dueState,
  firstSeenRange,
  leftOutByPauses,
  MAX_DUE_WITHIN,
  overdueDays,
  pausedOut,
  type ClockFinding,
  type DueFilter,
  type DueState,
} from '@contract/remediation'
import { useAppStore } from '@/stores/app'
import { useRemediationStore } from '@/stores/remediation'
import { useClock } from './clock'
import { useClockExceptions, useHeldFindings } from './dueHolds'
import { DUE_WITHIN_KEY, OVERDUE_KEY } from '@/resources/findingFilterKeys'

const MINUTE_MS = 60_000

/** The address keys of ScanDesk's due filters on the vulnerabilities list. */
export { DUE_WITHIN_KEY, OVERDUE_KEY }

const text = (v: LocationQuery[string]): string =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : ''

/** The due filter an address names (`overdue=true`, `due_within=7`), or none. */
export function dueFilterOf(query: LocationQuery): DueFilter | null {
  if (text(query[OVERDUE_KEY]) === 'true') return { kind: 'overdue' }
  const raw = text(query[DUE_WITHIN_KEY])
  const days = Number(raw)
  if (/^\d+$/.test(raw) && days >= 1 && days <= MAX_DUE_WITHIN) return { kind: 'due_within', days }
  return null
}

/** The address words of a due filter. */
export function dueFilterWords(filter: DueFilter | null): Record<string, string> {
  if (!filter) return {}
  return filter.kind === 'overdue'
    ? { [OVERDUE_KEY]: 'true' }
    : { [DUE_WITHIN_KEY]: String(filter.days) }
}

/** The address of the vulnerabilities list of one severity's overdue findings. */
export function overdueListOf(severity: string) {
  return { name: 'vulnerabilities', query: { severity, [OVERDUE_KEY]: 'true' } }
}

/**
 * No due filter: nothing more to ask. One object, so that a move of the address that leaves the
 * filter off (a page, a sort, another filter) gives the list the same query, not a new one that
 * draws the whole table again.
 */
const NO_RANGE: Readonly<Record<string, string>> = Object.freeze({})

/** An instant no finding was first seen before: the range of a severity without due dates. */
const NOTHING = { first_seen_before: '1970-01-01T00:00:00Z' }

/**
 * The window's account's remediation policy, asked for when the account changes (the defaults
 * until the answer), and whether its answer came (`ready`).
 */
export function useAccountPolicy() {
  const app = useAppStore()
  const store = useRemediationStore()
  watch(
    () => app.accountId,
    (id) => {
      if (id) void store.load(id)
    },
    { immediate: true },
  )
  return {
    policy: computed(() => store.policyOf(app.accountId)),
    ready: computed(() => store.settled(app.accountId)),
  }
}

/**
 * The vulnerabilities list's due filter, kept in the address like its other filters, and the
 * window's account's policy: what the filter asks of the service (a first-seen range of the
 * chosen severity), each row's due state for the Due and Overdue columns (at `now`, a minute
 * clock), and the rows of the service's answer an exception takes out of the filter (`leaveOut`,
 * for ResourceTable).
 *
 * `readExceptions` holds the read of the account's exceptions back until it says yes: the list
 * asks once its first rows are on screen, so the 500 exceptions do not share the connection and
 * main's time with the rows' own read (issue 22 §1). Until they are `known`, no row has a due
 * state (an exception may pause it).
 */
export function useDueDates(readExceptions: () => boolean = () => true) {
  const route = useRoute()
  const router = useRouter()
  const { policy } = useAccountPolicy()
  const filter = computed(() => dueFilterOf(route.query))
  const severity = computed(() => text(route.query.severity))
  // "Now" of the filter: taken when the filter, the severity or the policy changes (not each
  // tick, which would start the list again at page 1).
  const anchor = computed(() => {
    void [filter.value, severity.value, policy.value]
    return Date.now()
  })
  /** Overdue depends on the severity's days: with no severity chosen the filter waits for one. */
  const needsSeverity = computed(() => !!filter.value && !severity.value)
  /** The chosen severity has no due date (info, or none in the policy): nothing is due. */
  const noDueDate = computed(
    () => !!filter.value && !!severity.value && daysFor(policy.value, severity.value) === null,
  )
  const extraQuery = computed<Record<string, string>>(() => {
    if (!filter.value || !severity.value) return NO_RANGE
    return firstSeenRange(filter.value, severity.value, policy.value, anchor.value) ?? NOTHING
  })

  function setFilter(next: DueFilter | null): void {
    const rest = Object.fromEntries(
      Object.entries(route.query).filter(
        ([k]) => k !== OVERDUE_KEY && k !== DUE_WITHIN_KEY && k !== 'page',
      ),
    )
    void router.replace({ query: { ...rest, ...dueFilterWords(next) } })
  }

  // The account's exceptions (the newest 500 by expiry: one read), which stop a finding's clock:
  // at once with a due filter (its rows are judged by them), else once the rows are on screen.
  const exceptions = useClockExceptions(() => readExceptions() || !!filter.value)
  /** The exceptions are in (or could not be read: then no row is paused by one). */
  const known = exceptions.known
  const now = useClock(MINUTE_MS)

  /** A row's due state at `at`, its exceptions' pauses included (none until they are known). */
  function stateOf(id: string, a: Record<string, unknown>, at: number = now.value): DueState {
    const finding = findingOf(a)
    if (!known.value || !finding) return { kind: 'none' }
    return dueState(finding, policy.value, at, exceptions.byFinding.value.get(id) ?? [])
  }

  // One rule for the filter and the columns (issue 36 §7): the service is asked by first seen, so
  // the rows an exception takes out of the filter are left out of the list, and the total says
  // how many (the findings the exceptions hold, read by their ids).
  const held = useHeldFindings(exceptions, () => !!filter.value && !!severity.value)
  const leaveOut = computed(() => {
    const f = filter.value
    const sev = severity.value
    if (!f || !sev || !known.value) return undefined
    const [p, askedAt, at] = [policy.value, anchor.value, now.value]
    const byFinding = exceptions.byFinding.value
    return {
      test: (row: { id: string; attributes: Record<string, unknown> }) => {
        const finding = findingOf(row.attributes)
        return !!finding && pausedOut(f, finding, p, askedAt, at, byFinding.get(row.id) ?? [])
      },
      count: held.known.value ? leftOutByPauses(f, sev, held.held.value, p, askedAt, at) : null,
    }
  })

  return {
    policy,
    filter,
    severity,
    needsSeverity,
    noDueDate,
    extraQuery,
    setFilter,
    stateOf,
    known,
    now,
    leaveOut,
  }
}

/** A row's attributes as the clock needs them, or null when it lacks them. */
function findingOf(a: Record<string, unknown>): ClockFinding | null {
  return typeof a.severity === 'string' && typeof a.first_seen_at === 'string'
    ? { severity: a.severity, first_seen_at: a.first_seen_at }
    : null
}

/** Whole days overdue of a state, for the Overdue column ('' when not overdue). */
export function overdueText(state: DueState): string {
  const days = overdueDays(state)
  if (days === null) return ''
  return days === 0 ? 'under a day' : days === 1 ? '1 day' : `${days} days`
}
