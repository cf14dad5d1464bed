import { ref, watch } from 'vue'
import type { AppError } from '@contract/errors'
import type { DailyTotalsAnswer } from '@contract/trends'
import { request } from '@/bridge/bridge'
import { useAppStore } from '@/stores/app'

/**
 * The days of open-finding totals ScanDesk recorded for this window's account (trends.daily:
 * asking records today's when it is missing and the service answers). Asked again when the
 * account changes; an answer that arrives after a newer question is dropped.
 */
export function useDailyTotals(days: number) {
  const app = useAppStore()
  const answer = ref<DailyTotalsAnswer | null>(null)
  const error = ref<AppError | null>(null)
  const loading = ref(false)
  let asked = 0

  async function load(): Promise<void> {
    const accountId = app.accountId
    if (!accountId) return
    const mine = ++asked
    loading.value = true
    const result = await request('trends.daily', { accountId, days })
    if (mine !== asked) return
    loading.value = false
    answer.value = result.ok ? result.data : null
    error.value = result.ok ? null : result.error
  }

  watch(
    () => app.accountId,
    () => {
      answer.value = null
      void load()
    },
    { immediate: true },
  )
  return { answer, error, loading, reload: load }
}
