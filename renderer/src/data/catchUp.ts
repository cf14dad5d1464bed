import type { PiniaColadaPlugin, QueryCache } from '@pinia/colada'
import { watch } from 'vue'
import type { ConnectivityState } from '@contract/offline'
import { useAccountsStore } from '@/stores/accounts'
import { useAppStore } from '@/stores/app'
import { invalidateOfflineCopies } from './invalidation'

// Every mount of the data layer runs its plugins (tests mount several apps on one Pinia).
const hooked = new WeakSet<QueryCache>()

/**
 * The catch-up: when an account's service turns online from any other state, every read of that
 * account that shows the offline copy is asked again, so screens leave the copy by themselves.
 */
export const catchUpPlugin: PiniaColadaPlugin = ({ queryCache, pinia, scope }) => {
  if (hooked.has(queryCache)) return
  hooked.add(queryCache)
  scope.run(() => {
    const app = useAppStore(pinia)
    const accounts = useAccountsStore(pinia)
    watch(
      (): Record<string, ConnectivityState> => {
        const ids = new Set([
          ...accounts.accounts.map((a) => a.id),
          ...Object.keys(app.connectivity),
        ])
        return Object.fromEntries([...ids].map((id) => [id, app.connectivityOf(id).state]))
      },
      (next, previous) => {
        for (const [id, state] of Object.entries(next))
          if (state === 'online' && previous[id] && previous[id] !== 'online')
            void invalidateOfflineCopies(queryCache, id)
      },
    )
  })
}
