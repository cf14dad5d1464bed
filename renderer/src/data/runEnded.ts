import type { PiniaColadaPlugin, QueryCache } from '@pinia/colada'
import { onScopeDispose } from 'vue'
import { on } from '@/bridge/bridge'
import { invalidateGroups, RUN_END_GROUPS } from './invalidation'

// Every mount of the data layer runs its plugins (tests mount several apps on one Pinia).
const hooked = new WeakSet<QueryCache>()

/**
 * A scan's run ended, as main's notification watcher heard from the service (`scans.runEnded`,
 * for any signed-in account): that account's reads of scans, hosts, findings and reports are
 * marked stale and the ones on screen asked again, so a scan page or list open meanwhile shows
 * the end (its status, its Changes and its Reports) even when it was not watching the run.
 */
export const runEndedPlugin: PiniaColadaPlugin = ({ queryCache, scope }) => {
  if (hooked.has(queryCache)) return
  hooked.add(queryCache)
  scope.run(() => {
    const off = on('scans.runEnded', ({ accountId }) => {
      void invalidateGroups(queryCache, accountId, RUN_END_GROUPS)
    })
    onScopeDispose(off)
  })
}
