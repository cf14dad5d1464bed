// "Since your last visit" (issue 19): counts asked of the service's lists — never every finding.
// New findings are the list's exact total for a first-seen range (one row asked); scans and
// exceptions, whose lists cannot filter by those times, are read sorted so that the records
// counted come first, only until the first record past the boundary. The offline copy of the last
// reading answers the same reads again offline (docs/decisions.md, "Since your last visit").
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
  meta?: { pagination?: { total_pages?: unknown; total_count?: unknown } }
}

export const SINCE_NOTE = {
  offline:
    'Not known offline: the offline copy does not hold this list yet (it is kept once the dashboard was opened online).',
  offlineSince:
    'Not known offline: the offline copy holds no count since this moment (it is kept each time the dashboard is opened online).',
  noTotal: 'Not known: the service’s answer did not say how many there are.',
  failed: (why: string) => `Not known: ${why}`,
  noSnapshots: (n: number) =>
    `${n} ${n === 1 ? 'scan' : 'scans'} completed without a snapshot of ${n === 1 ? 'its' : 'their'} run before and after your last visit, so ${n === 1 ? 'its' : 'their'} fixed findings are not counted.`,
  noScans: 'Not known: the scans completed since could not be read.',
}

const noteOf = (err: unknown, offline: string = SINCE_NOTE.offline): string =>
  err instanceof AppFailure
    ? err.error.code === 'OFFLINE'
      ? offline
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

/**
 * Findings of a severity first seen at or after `since`: the list's exact total for that range
 * (`severity`, `first_seen_after`, one row asked). The query names the moment, so offline the copy
 * answers it only for the moment it was read online.
 */
export async function newFindings(
  read: SinceRead,
  severity: 'critical' | 'high',
  since: number,
): Promise<SinceCount> {
  const query = { severity, first_seen_after: new Date(since).toISOString(), page: 1, per_page: 1 }
  try {
    const answer = await read('vulnerabilities.list', { query })
    const total = (answer.data as Page | null)?.meta?.pagination?.total_count
    if (typeof total !== 'number' || !Number.isInteger(total) || total < 0)
      return { value: null, atLeast: false, note: SINCE_NOTE.noTotal, fromCache: answer.fromCache }
    return { value: total, atLeast: false, note: null, fromCache: answer.fromCache }
  } catch (err) {
    return {
      value: null,
      atLeast: false,
      note: noteOf(err, SINCE_NOTE.offlineSince),
      fromCache: false,
    }
  }
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
