import { useQueryCache, type QueryCache } from '@pinia/colada'
import { findOperation, type GroupId } from '@contract/catalog'
import type { Answer } from './fetchOperation'
import { parseKey } from './keys'

/**
 * Marks stale every read of `accountId` in `groups` (active ones are asked again at once), so
 * the lists a write changed show the change. Reads of other accounts are left alone. A refetch
 * that fails (the record a detail page shows was just deleted) is that read's own error, shown
 * where the read is; it does not reject here.
 */
export function useInvalidation() {
  const cache = useQueryCache()
  return (accountId: string, groups: readonly GroupId[]): Promise<unknown> =>
    cache
      .invalidateQueries({
        predicate: (entry) => {
          const key = parseKey(entry.key)
          const group = key && findOperation(key.op)?.group
          return key?.accountId === accountId && !!group && groups.includes(group)
        },
      })
      .catch(() => undefined)
}

/**
 * Marks stale every read of `accountId` whose last answer was the offline copy (active ones are
 * asked again at once, the others when next shown): the catch-up once the service is back.
 */
export function invalidateOfflineCopies(cache: QueryCache, accountId: string): Promise<unknown> {
  return cache
    .invalidateQueries({
      predicate: (entry) => {
        const answer = entry.state.value.data as Partial<Answer<unknown>> | undefined
        return parseKey(entry.key)?.accountId === accountId && answer?.fromCache === true
      },
    })
    .catch(() => undefined)
}
