import { computed } from 'vue'
import type { ClockException, ClockFinding } from '@contract/remediation'
import { MAX_IDS_FILTER } from '@contract/schemas/common'
import { useRows } from '@/data/useRecord'

// What stops a finding's clock (docs/decisions.md, "Due dates"): the account's exceptions, and the
// findings they hold, read once for the due dates' columns, filters and counts alike.

/** The account's exceptions the due dates read: the newest 500 by expiry, one read. */
const EXCEPTIONS_INPUT = { query: { per_page: 500, sort: '-expires_at' } } as const
/** Reads by ids of the findings those exceptions hold, at most (500 exceptions, 100 ids a read). */
const HELD_READS = 5

/** A finding an exception holds (or held), with its exceptions: what the rule needs of it. */
export interface HeldFinding {
  id: string
  finding: ClockFinding
  exceptions: ClockException[]
}

/**
 * The account's exceptions (held back until `enabled`), by the finding each is about, and whether
 * they are in (or could not be read: then none pauses a clock).
 */
export function useClockExceptions(enabled: () => boolean) {
  const read = useRows('exceptions.list', EXCEPTIONS_INPUT, { enabled })
  const known = computed(() => read.data.value !== undefined || !!read.error.value)
  const byFinding = computed(() => {
    const map = new Map<string, ClockException[]>()
    for (const { attributes: e } of read.rows.value) {
      const list = map.get(e.vulnerability_id) ?? []
      list.push(e)
      map.set(e.vulnerability_id, list)
    }
    return map
  })
  return { read, known, byFinding }
}

/**
 * The findings whose clock an exception stopped (an active one, or one that was in force before it
 * expired: pending ones never stop it), read by their ids — so a due filter's list and the Overdue
 * panel can tell how many of the service's first-seen range the rule leaves out. `known` once
 * every read answered; `error` the first that failed (the count is then not known).
 */
export function useHeldFindings(
  exceptions: ReturnType<typeof useClockExceptions>,
  enabled: () => boolean,
) {
  const ids = computed(() =>
    exceptions.known.value
      ? [...exceptions.byFinding.value.entries()]
          .filter(([, list]) => list.some((e) => e.state !== 'pending' && !!e.activated_at))
          .map(([id]) => id)
          .sort()
      : null,
  )
  const chunk = (i: number) => ids.value?.slice(i * MAX_IDS_FILTER, (i + 1) * MAX_IDS_FILTER) ?? []
  const reads = Array.from({ length: HELD_READS }, (_, i) =>
    useRows(
      'vulnerabilities.list',
      () =>
        enabled() && chunk(i).length
          ? { query: { ids: chunk(i).join(','), per_page: MAX_IDS_FILTER } }
          : null,
      { enabled },
    ),
  )
  const active = () => reads.filter((_, i) => chunk(i).length > 0)
  const error = computed(() => active().find((r) => r.error.value)?.error.value ?? null)
  const known = computed(
    () =>
      enabled() &&
      ids.value !== null &&
      !error.value &&
      active().every((r) => r.data.value !== undefined),
  )
  const held = computed<HeldFinding[]>(() => {
    const asked = new Set(ids.value ?? [])
    const out: HeldFinding[] = []
    for (const r of active())
      for (const { id, attributes: a } of r.rows.value)
        // a service that ignores `ids` answers its first page: only the findings asked count
        if (asked.has(id))
          out.push({
            id,
            finding: { severity: a.severity, first_seen_at: a.first_seen_at },
            exceptions: exceptions.byFinding.value.get(id) ?? [],
          })
    return out
  })
  /** Asks every read of them again. */
  const retry = async () => void (await Promise.all(active().map((r) => r.retry())))
  return { held, known, error, retry }
}
