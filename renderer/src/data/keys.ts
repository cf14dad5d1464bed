import type { EntryKey } from '@pinia/colada'
import type { GroupId, OperationId } from '@contract/catalog'

/** First element of every operation query key (lets us tell our entries from others). */
export const OP_KEY = 'op'

/**
 * Keys run from general to specific — `['op', accountId, group, opId, input]` — so a prefix names
 * a whole family: every read of an account (`accountKey`), of one of its groups (`groupKey`, what
 * a write invalidates), or of one operation whatever its input (`operationPrefix`).
 */
export function accountKey(accountId: string): EntryKey {
  return [OP_KEY, accountId]
}

/** The prefix of every read of `accountId` in `group`. */
export function groupKey(accountId: string, group: GroupId): EntryKey {
  return [OP_KEY, accountId, group]
}

/**
 * The group of operation `op`: the part of its id before the dot (`targets.list` → `targets`),
 * the catalog's rule for every id (keys.test.ts checks it against the catalog). Read from the id,
 * not the catalog, so the keys (used from the first screen on) do not load the catalog's schemas.
 */
export function groupOf(op: OperationId): GroupId {
  return op.slice(0, op.indexOf('.')) as GroupId
}

/** The prefix of every read of `accountId` of operation `op`, whatever its input. */
export function operationPrefix(accountId: string, op: OperationId): EntryKey {
  return [OP_KEY, accountId, groupOf(op), op]
}

/**
 * The query key of one read: the account, the operation's group, the operation and its input.
 * Inputs are normalised (undefined, null and '' dropped, keys sorted by the cache) so equal
 * requests share one entry.
 */
export function operationKey(accountId: string, op: OperationId, input: unknown): EntryKey {
  return [...operationPrefix(accountId, op), normalise(input) as EntryKey[number]]
}

/** Drops empty values so `{search: ''}` and `{}` are the same request. */
export function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise)
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || v === null || v === '') continue
      const n = normalise(v)
      if (n && typeof n === 'object' && !Array.isArray(n) && Object.keys(n).length === 0) continue
      out[k] = n
    }
    return out
  }
  return value
}

/** The parts of one of our keys, or null for another kind of entry. */
export function parseKey(
  key: EntryKey,
): { accountId: string; group: GroupId; op: OperationId; input: unknown } | null {
  const [kind, accountId, group, op, input] = key
  if (kind !== OP_KEY || typeof accountId !== 'string' || typeof op !== 'string') return null
  if (typeof group !== 'string' || !op.startsWith(`${group}.`)) return null
  return { accountId, group: group as GroupId, op: op as OperationId, input }
}
