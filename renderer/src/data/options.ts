import type { PiniaColadaOptions } from '@pinia/colada'
import { watch } from 'vue'
import { useAccountsStore } from '@/stores/accounts'
import { catchUpPlugin } from './catchUp'
import { OP_KEY, parseKey } from './keys'
import { runEndedPlugin } from './runEnded'

/** How long an answer counts as fresh before a view asks again on its own. */
export const STALE_MS = 30_000

/**
 * The data layer's settings: answers fresh for 30 s, kept 5 min after the last view left them,
 * no refetch on window focus (the service is metered and lists can be large), and every entry
 * of an account dropped from memory as soon as that account is removed; the offline copies of an
 * account are asked again once its service is back (catchUp.ts), and its scan reads when main
 * hears that a scan's run ended (runEnded.ts).
 */
export const DATA_OPTIONS: PiniaColadaOptions = {
  queryOptions: { staleTime: STALE_MS, gcTime: 5 * 60_000, refetchOnWindowFocus: false },
  plugins: [
    ({ queryCache, pinia, scope }) => {
      scope.run(() => {
        const accounts = useAccountsStore(pinia)
        watch(
          () => accounts.loaded && accounts.accounts.map((a) => a.id),
          (ids) => {
            if (!ids) return
            const known = new Set(ids)
            for (const entry of queryCache.getEntries({ key: [OP_KEY] })) {
              const key = parseKey(entry.key)
              if (key && !known.has(key.accountId) && key.accountId !== '-')
                queryCache.remove(entry)
            }
          },
        )
      })
    },
    catchUpPlugin,
    runEndedPlugin,
  ],
}
