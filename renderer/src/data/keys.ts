import type { EntryKey } from '@pinia/colada'
import type { OperationId } from '@contract/catalog'

/** First element of every operation query key (lets invalidation tell our entries apart). */
export const OP_KEY = 'op'

/**
 * The query key of one read: the account, the operation and its input. Inputs are normalised
 * (undefined, null and '' dropped, keys sorted by the cache) so equal requests share one entry.
 */
export function operationKey(accountId: string, op: OperationId, input: unknown): EntryKey {
  return [OP_KEY, accountId, op, normalise(input) as EntryKey[number]]
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
export function parseKey(key: EntryKey): { accountId: string; op: string } | null {
  if (key[0] !== OP_KEY || typeof key[1] !== 'string' || typeof key[2] !== 'string') return null
  return { accountId: key[1], op: key[2] }
}
