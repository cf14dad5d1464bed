// "Since your last visit" (issue 19): counts asked of the service's lists, sorted so that the
// records counted come first and read only until the first record past the boundary — never every
// finding. The lists' inputs do not depend on the moment counted from, so the offline copy of the
// last reading answers them again offline (docs/decisions.md, "Since your last visit").
import type { FixedCount, SinceCount } from '@contract/since'
import { compareSnapshots, type SnapshotFinding } from '@contract/findings/compare'
import { AppFailure } from '@contract/errors'
import type { SnapshotSummary } from '@contract/changes'

/** The list operations the counts read. */
export type SinceOp = 'vulnerabilities.list' | 'scans.list' | 'exceptions.list'

/** One read of a list for the account; `fromCache` when the offline copy answered. */
export type SinceRead = (
  op: SinceOp,
  input: { query: Record<string, unknown> },
) => Promise<{ data: unknown; fromCache: boolean }>

/** Rows a page holds (the catalog allows up to 500; 100 keeps a page small). */
export const PER_PAGE = 100
/** Pages read at most: a count above PER_PAGE × MAX_PAGES shows as "at least". */
export const MAX_PAGES = 5

/** A row of a list as the counts read it. */
export interface ListRow {
  id: string
  attributes: Record<string, unknown>
}

/** What a row is to a count: counted, passed over, or the first past the boundary (stop). */
export type Verdict = 'count' | 'skip' | 'stop'

interface Page {
  data?: { id?: unknown; attributes?: unknown }[]
  meta?: { pagination?: { total_pages?: unknown } }
}

export const SINCE_NOTE = {
  offline:
    'Not known offline: the offline copy does not hold this list yet (it is kept once the dashboard was opened online).',
  failed: (why: string) => `Not known: ${why}`,
  noSnapshots: (n: number) =>
    `${n} ${n === 1 ? 'scan' : 'scans'} completed without a snapshot of ${n === 1 ? 'its' : 'their'} run before and after your last visit, so ${n === 1 ? 'its' : 'their'} fixed findings are not counted.`,
  noScans: 'Not known: the scans completed since could not be read.',
}

const noteOf = (err: unknown): string =>
  err instanceof AppFailure
    ? err.error.code === 'OFFLINE'
      ? SINCE_NOTE.offline
      : SINCE_NOTE.failed(err.error.message)
    : SINCE_NOTE.failed('the service’s answer could not be read.')

/**
 * Counts the rows of a sorted list that `verdict` counts, page by page, until a row says stop,
 * the list ends or MAX_PAGES were read (then `atLeast`). The rows counted are returned too.
 */
export async function countSorted(
  read: SinceRead,
  op: SinceOp,
  query: Record<string, unknown>,
  verdict: (row: ListRow) => Verdict,
): Promise<SinceCount & { rows: ListRow[] }> {
  const rows: ListRow[] = []
  let fromCache = false
  try {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await read(op, { query: { ...query, page, per_page: PER_PAGE } })
      fromCache ||= answer.fromCache
      const body = answer.data as Page
      const data = Array.isArray(body?.data) ? body.data : []
      for (const raw of data) {
        if (typeof raw.id !== 'string' || typeof raw.attributes !== 'object' || !raw.attributes)
          continue
        const row = { id: raw.id, attributes: raw.attributes as Record<string, unknown> }
        const v = verdict(row)
        if (v === 'stop') return { value: rows.length, atLeast: false, note: null, fromCache, rows }
        if (v === 'count') rows.push(row)
      }
      const pages = Number(body?.meta?.pagination?.total_pages)
      const last = data.length < PER_PAGE || (Number.isFinite(pages) && page >= pages)
      if (last) return { value: rows.length, atLeast: false, note: null, fromCache, rows }
    }
    return { value: rows.length, atLeast: true, note: null, fromCache, rows }
  } catch (err) {
    return { value: null, atLeast: false, note: noteOf(err), fromCache, rows: [] }
  }
}

/** A time attribute as milliseconds, or null when it is missing or not a time. */
export function timeOf(row: ListRow, field: string): number | null {
  const v = row.attributes[field]
  if (typeof v !== 'string') return null
  const ms = Date.parse(v)
  return Number.isFinite(ms) ? ms : null
}

/** Findings of a severity first seen after `since` (the list newest first). */
export function newFindings(read: SinceRead, severity: 'critical' | 'high', since: number) {
  return countSorted(read, 'vulnerabilities.list', { severity, sort: '-first_seen_at' }, (row) => {
    const t = timeOf(row, 'first_seen_at')
    return t === null ? 'skip' : t > since ? 'count' : 'stop'
  })
}

/** Scans whose run completed after `since` (completed scans, last finished first). */
export function scansCompleted(read: SinceRead, since: number) {
  return countSorted(read, 'scans.list', { status: 'completed', sort: '-finished_at' }, (row) => {
    const t = timeOf(row, 'finished_at')
    return t === null ? 'skip' : t > since ? 'count' : 'stop'
  })
}

/** Active exceptions expiring from `now` to `until` (soonest first; past ones passed over). */
export function expiringExceptions(read: SinceRead, now: number, until: number) {
  return countSorted(read, 'exceptions.list', { state: 'active', sort: 'expires_at' }, (row) => {
    const t = timeOf(row, 'expires_at')
    return t === null || t < now ? 'skip' : t <= until ? 'count' : 'stop'
  })
}

/** What the fixed count needs of the run snapshots. */
export interface SnapshotSource {
  list(accountId: string, scanId: string): SnapshotSummary[]
  get(accountId: string, scanId: string, runId: string): Promise<SnapshotFinding[] | null>
}

/**
 * Findings fixed since `since` in the scans completed since: per scan, the snapshot of its latest
 * run against the snapshot of the last run that finished before `since` (exact, by the finding's
 * identity). A scan without both is named in the note and not counted.
 */
export async function fixedSince(
  snapshots: SnapshotSource,
  accountId: string,
  scanIds: readonly string[],
  since: number,
): Promise<FixedCount> {
  let value = 0
  let missing = 0
  const counted: string[] = []
  for (const scanId of scanIds) {
    const list = snapshots.list(accountId, scanId)
    const latest = list[0]
    const before = list.find((s) => Date.parse(s.finishedAt) <= since)
    if (!latest || !before || latest === before) {
      missing++
      continue
    }
    const [earlier, later] = await Promise.all([
      snapshots.get(accountId, scanId, before.runId),
      snapshots.get(accountId, scanId, latest.runId),
    ])
    if (!earlier || !later) {
      missing++
      continue
    }
    value += compareSnapshots(earlier, later).fixed.length
    counted.push(scanId)
  }
  return {
    value: counted.length === 0 && missing > 0 ? null : value,
    atLeast: false,
    note: missing > 0 ? SINCE_NOTE.noSnapshots(missing) : null,
    fromCache: false,
    scanIds: counted,
  }
}
