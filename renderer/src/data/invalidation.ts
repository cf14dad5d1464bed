import { useQueryCache, type EntryKey, type QueryCache } from '@pinia/colada'
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
 * Groups whose reads carry live statuses (a scan's state and progress): a copy of them contradicts
 * what fresher screens say (a finished scan still "running 3%"), so they are caught up first.
 */
export const STATUS_GROUPS: readonly GroupId[] = ['scans']

/**
 * Marks stale every read of `accountId` whose last answer was the offline copy (active ones are
 * asked again at once, the others when next shown): the catch-up once the service is back. The
 * reads of statuses go first and are answered before the rest are asked.
 */
export async function invalidateOfflineCopies(
  cache: QueryCache,
  accountId: string,
): Promise<unknown> {
  const copyOf = (entry: { key: EntryKey; state: { value: { data?: unknown } } }) => {
    const answer = entry.state.value.data as Partial<Answer<unknown>> | undefined
    const key = parseKey(entry.key)
    if (key?.accountId !== accountId || answer?.fromCache !== true) return null
    return findOperation(key.op)?.group ?? ''
  }
  const isStatus = (group: GroupId | '' | null) => !!group && STATUS_GROUPS.includes(group)
  await cache
    .invalidateQueries({ predicate: (entry) => isStatus(copyOf(entry)) })
    .catch(() => undefined)
  return cache
    .invalidateQueries({
      predicate: (entry) => {
        const group = copyOf(entry)
        return group !== null && !isStatus(group)
      },
    })
    .catch(() => undefined)
}
