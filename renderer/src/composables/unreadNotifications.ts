import { computed, onScopeDispose } from 'vue'
import { on } from '@/bridge/bridge'
import { useInvalidation } from '@/data/invalidation'
import { useRows } from '@/data/useRecord'
import { useAppStore } from '@/stores/app'

/**
 * How many notifications of this window's account are unread (the sidebar's badge), asked of
 * the service and asked again when main's watcher reports new ones for that account.
 */
export function useUnreadNotifications() {
  const app = useAppStore()
  const invalidate = useInvalidation()
  const read = useRows(
    'notifications.list',
    () => (app.account?.signedIn ? { query: { read: 'false' as const, per_page: 1 } } : null),
    { staleTime: 60_000 },
  )
  const off = on('notifications.arrived', ({ accountId }) => {
    if (accountId === app.accountId) void invalidate(accountId, ['notifications'])
  })
  onScopeDispose(off)
  return computed(() => {
    const answer = read.data.value
    if (!answer || read.fromCache.value) return 0
    return answer.meta?.unread_count ?? read.total.value
  })
}
