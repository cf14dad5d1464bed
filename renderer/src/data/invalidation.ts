import { useQueryCache, type QueryCache } from '@pinia/colada'
import type { GroupId } from '@contract/catalog'
import { OperationError } from './errors'
import type { Answer } from './fetchOperation'
import { accountKey, groupKey, parseKey } from './keys'

/**
 * Marks stale every read of `accountId` in `groups` (active ones are asked again at once), so
 * the lists a write changed show the change: one key-prefix invalidation per group
 * (`['op', accountId, group]`). Reads of other accounts are left alone. A refetch that fails (the
 * record a detail page shows was just deleted) is that read's own error, shown where the read
 * is; it does not reject here.
 */
export function invalidateGroups(
  cache: QueryCache,
  accountId: string,
  groups: readonly GroupId[],
): Promise<unknown> {
  return Promise.all(
    [...new Set(groups)].map((group) =>
      cache.invalidateQueries({ key: groupKey(accountId, group) }).catch(() => undefined),
    ),
  )
}

/** `invalidateGroups` on this app's query cache. */
export function useInvalidation() {
  const cache = useQueryCache()
  return (accountId: string, groups: readonly GroupId[]): Promise<unknown> =>
    invalidateGroups(cache, accountId, groups)
}

/**
 * What the end of a scan's run changes: the scan (status, figures, history), its hosts and
 * findings, and its reports (the service makes one when a run completes).
 */
export const RUN_END_GROUPS: readonly GroupId[] = ['scans', 'hosts', 'vulnerabilities', 'reports']

/**
 * Groups whose reads carry live statuses (a scan's state and progress): a copy of them contradicts
 * what fresher screens say (a finished scan still "running 3%"), so they are caught up first.
 */
export const STATUS_GROUPS: readonly GroupId[] = ['scans']

/**
 * Error codes that say the service was out of reach, not what it answered: a read that failed so
 * (offline without a copy, "Work offline" on, a timeout) is asked again when the service is back.
 */
export const OUT_OF_REACH_CODES: readonly string[] = ['OFFLINE', 'TIMEOUT']

/** Whether an entry shows the offline copy, or failed only because the service was out of reach. */
function waitsForTheService(entry: {
  state: { value: { data?: unknown; error?: unknown } }
}): boolean {
  const answer = entry.state.value.data as Partial<Answer<unknown>> | undefined
  const error = entry.state.value.error
  return (
    answer?.fromCache === true ||
    (error instanceof OperationError && OUT_OF_REACH_CODES.includes(error.appError.code))
  )
}

/**
 * Marks stale every read of `accountId` whose last answer was the offline copy, or that failed
 * because the service was out of reach (a list never opened online): the catch-up once the
 * service is back. Active ones — what is on screen — are asked again at once, the others when
 * next shown, so no herd of requests leaves for screens nobody looks at. The reads of statuses go
 * first and are answered before the rest are asked. Only the account's entries (its key prefix)
 * are looked at, each for where its answer came from.
 */
export async function invalidateOfflineCopies(
  cache: QueryCache,
  accountId: string,
): Promise<unknown> {
  const copies = (statuses: boolean) =>
    cache
      .invalidateQueries({
        key: accountKey(accountId),
        predicate: (entry) => {
          const group = parseKey(entry.key)?.group
          return waitsForTheService(entry) && !!group && STATUS_GROUPS.includes(group) === statuses
        },
      })
      .catch(() => undefined)
  await copies(true)
  return copies(false)
}
