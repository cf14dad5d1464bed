import type { QueryCache } from '@pinia/colada'
import type { OperationId } from '@contract/catalog'
import { toAppError } from './errors'
import { fetchDynamic, type Answer } from './fetchOperation'
import { operationPrefix } from './keys'
import type { DynamicInput } from './useOperationCall'

/** A row of a list answer as the search gives it. */
export interface FoundRow {
  id: string
  attributes: Record<string, unknown>
}

/** The rows of a list answer that have the service's record shape (an id and attributes). */
function rowsIn(answer: unknown): FoundRow[] {
  const data = (answer as { data?: unknown } | null | undefined)?.data
  if (!Array.isArray(data)) return []
  return data.flatMap((value: unknown) => {
    const { id, attributes } = (value ?? {}) as { id?: unknown; attributes?: unknown }
    if (typeof id !== 'string') return []
    const attrs = attributes && typeof attributes === 'object' && !Array.isArray(attributes)
    return [{ id, attributes: attrs ? { ...(attributes as Record<string, unknown>) } : {} }]
  })
}

/** What one list search found: its rows and whether they came from the offline copy. */
export interface Found {
  rows: FoundRow[]
  /** The rows are (in part) what this computer keeps, not a fresh answer of the service. */
  fromCopy: boolean
}

/** What searchList needs to know about the list it searches. */
export interface ListSearch {
  op: OperationId
  input: DynamicInput
  /** Offline: whether a row held in memory matches the text (the list's own search fields). */
  matches: (row: FoundRow) => boolean
  /** At most this many rows. */
  limit: number
}

/**
 * The rows of every answer of `op` the query cache holds for `accountId` (lists the user opened,
 * whether read from the service or from the offline copy), each record once.
 */
export function cachedRows(cache: QueryCache, accountId: string, op: OperationId): FoundRow[] {
  const seen = new Map<string, FoundRow>()
  for (const entry of cache.getEntries({ key: operationPrefix(accountId, op) })) {
    const answer = entry.state.value.data as Answer<unknown> | undefined
    for (const row of rowsIn(answer?.data)) if (!seen.has(row.id)) seen.set(row.id, row)
  }
  return [...seen.values()]
}

/**
 * One search of a list for the command palette. Online: the service's answer (main serves the
 * offline copy when the service turns out to be out of reach). Offline (`offline`, or main says
 * so): main's copy of that same search if one was made before, together with the matching rows of
 * every list of that kind held in memory (`cachedRows`), since a search never made online has no
 * copy of its own. Aborting `signal` cancels the request in main (fetchDynamic) and rejects.
 */
export async function searchList(
  cache: QueryCache,
  accountId: string,
  search: ListSearch,
  offline: boolean,
  signal: AbortSignal,
): Promise<Found> {
  const rows = new Map<string, FoundRow>()
  let fromCopy = offline
  try {
    const answer = await fetchDynamic(accountId, search.op, search.input, signal)
    for (const row of rowsIn(answer.data)) rows.set(row.id, row)
    if (!offline)
      return { rows: [...rows.values()].slice(0, search.limit), fromCopy: answer.fromCache }
  } catch (err) {
    if (signal.aborted) throw err
    // No copy of this search: what memory holds is all there is.
    if (toAppError(err).code !== 'OFFLINE') throw err
    fromCopy = true
  }
  for (const row of cachedRows(cache, accountId, search.op))
    if (!rows.has(row.id) && search.matches(row)) rows.set(row.id, row)
  return { rows: [...rows.values()].slice(0, search.limit), fromCopy }
}
