import { computed, watch } from 'vue'
import type { AppError } from '@contract/errors'
import { useInvalidation } from '@/data/invalidation'
import { toRows, type LiveRowsDef } from '@/resources'
import { useAppStore } from '@/stores/app'
import { usePolledRead } from './polling'

/**
 * A list on screen whose page holds a row that changes by itself is asked again with backoff
 * (usePolledRead: 2 s up to 30 s, back to 2 s when a row changed; paused while the window is
 * hidden for long) until none does; nothing is asked while none does. When a row still on the
 * page stops being live (a scan's run ended), the reads of `settles` are refreshed for that
 * account, so what its end changed shows everywhere.
 */
export function useLiveRows(
  live: LiveRowsDef | undefined,
  list: {
    rows: { readonly value: readonly unknown[] }
    retry: () => Promise<void>
    error: { readonly value: AppError | null }
  },
) {
  const app = useAppStore()
  const invalidate = useInvalidation()
  const rows = computed(() => (live ? toRows(list.rows.value) : []))
  const liveIds = computed(() =>
    live ? rows.value.filter((r) => live.when(r.attributes)).map((r) => r.id) : [],
  )
  const poll = usePolledRead(
    list,
    () => JSON.stringify(rows.value),
    () => liveIds.value.length > 0,
  )
  watch([liveIds, () => app.accountId] as const, ([now, accountId], [before, previousAccount]) => {
    if (!live?.settles || !accountId || accountId !== previousAccount) return
    const settled = before.filter((id) => !now.includes(id) && rows.value.some((r) => r.id === id))
    if (settled.length) void invalidate(accountId, live.settles)
  })
  return poll
}
