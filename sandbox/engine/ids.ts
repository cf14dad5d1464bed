/**
 * The `ids` filter of the list operations references need (docs/decisions.md, "Names instead of
 * ids"): `ids=tgt-001,tgt-007` keeps only those rows, in the list's order, after the caller's
 * scope (an id the caller may not see is simply not in the answer).
 */

/** The ids an `ids` filter names, or null when the query has none. */
export function idsFilterOf(query: { readonly ids?: unknown }): ReadonlySet<string> | null {
  const raw = query.ids
  if (typeof raw !== 'string' || raw === '') return null
  return new Set(raw.split(','))
}

/** `rows` narrowed to the ids the query's `ids` filter names (all of them without one). */
export function keepIds<R extends { id: string }>(
  rows: R[],
  query: { readonly ids?: unknown },
): R[] {
  const ids = idsFilterOf(query)
  return ids ? rows.filter((r) => ids.has(r.id)) : rows
}
