// What the names layer reads out of the query cache: the records an answer holds, the ids a
// batch asked for, and why a name could not be had. Pure functions, no Vue.
import type { EntryKey } from '@pinia/colada'
import type { ErrorCode } from '@contract/errors'
import { MAX_IDS_FILTER } from '@contract/schemas/common'
import { recordOf } from './envelope'
import { parseKey } from './keys'

/** Why a record is shown by its id: no name could be had. */
export type UnnamedReason =
  /** Offline, and no offline copy holds it. */
  | 'offline'
  /** The service (or the user's permissions) refused the read. */
  | 'refused'
  /** The account's release has no read that names it. */
  | 'release'
  /** Asked for and not in the answer: deleted, or not visible to this user. */
  | 'missing'
  /** Not in the answer, and its own read answered 404: the record no longer exists. */
  | 'deleted'
  /** The record has no name (its name field is empty). */
  | 'blank'
  /** The read failed for another reason. */
  | 'failed'

/** What is known of one record's name. */
export type RecordName =
  | { state: 'named'; name: string }
  | { state: 'loading' }
  | { state: 'unnamed'; reason: UnnamedReason }

/** The words shown next to an id whose name could not be had. */
export const UNNAMED_WORDS: Readonly<Record<UnnamedReason, string>> = {
  offline: 'name not available offline',
  refused: 'name not available: not permitted',
  release: 'name not available in this release',
  missing: 'not found: deleted or not visible to you',
  deleted: 'deleted',
  blank: 'no name',
  failed: 'name not available',
}

/**
 * A record as text where only text will do (a title, a confirmation): its name, or its id with
 * what is missing in words — never a bare id as if it were a name.
 */
export function nameText(id: string, name: RecordName, loadingText = id): string {
  if (name.state === 'named') return name.name
  if (name.state === 'loading') return loadingText
  return `${id} (${UNNAMED_WORDS[name.reason]})`
}

/** Why a read that failed with `code` names nothing. */
export function reasonOf(code: ErrorCode): UnnamedReason {
  switch (code) {
    case 'OFFLINE':
      return 'offline'
    case 'FORBIDDEN':
    case 'UNAUTHORIZED':
    case 'NOT_SIGNED_IN':
      return 'refused'
    case 'NOT_IN_RELEASE':
    case 'RELEASE_MISMATCH':
      return 'release'
    case 'NOT_FOUND':
      return 'missing'
    default:
      return 'failed'
  }
}

/** The ids a batch read asked for (its query's `ids`), or null for any other read. */
export function askedIds(key: EntryKey): ReadonlySet<string> | null {
  const input = parseKey(key)?.input as { query?: { ids?: unknown } } | undefined
  const ids = input?.query?.ids
  return typeof ids === 'string' && ids ? new Set(ids.split(',')) : null
}

/** The input of the batch read naming `ids` (sorted, so equal sets share one cache entry). */
export function batchInput(ids: readonly string[]): { query: { ids: string; per_page: number } } {
  const sorted = [...new Set(ids)].sort()
  return { query: { ids: sorted.join(','), per_page: sorted.length } }
}

/** `ids` in batches the `ids` filter accepts (at most 100 each). */
export function batches(ids: readonly string[], size = MAX_IDS_FILTER): string[][] {
  const out: string[][] = []
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size))
  return out
}

/**
 * The records one answer holds (a list's rows or a read's one row), each with its name: the
 * value of `field` when it is text, '' when the record has none. Only the asked ids count when
 * `asked` is given (a service that ignores `ids` answers other rows).
 */
export function recordsIn(
  answerData: unknown,
  field: string,
  asked: ReadonlySet<string> | null,
): { id: string; name: string }[] {
  const data = recordOf(answerData)
  const rows = Array.isArray(data) ? data : data ? [data] : []
  const out: { id: string; name: string }[] = []
  for (const row of rows) {
    if (!row || typeof row !== 'object') continue
    const { id, attributes } = row as { id?: unknown; attributes?: Record<string, unknown> }
    if (typeof id !== 'string' || (asked && !asked.has(id))) continue
    const name = attributes?.[field]
    out.push({ id, name: typeof name === 'string' ? name.trim() : '' })
  }
  return out
}
