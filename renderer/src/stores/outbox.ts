import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import type { AppError, Result } from '@contract/errors'
import type { OutboxItem } from '@contract/offline'
import { on, request } from '@/bridge/bridge'
import { useAppStore } from './app'

/**
 * The writes of this window's account kept to be sent when its service is back (the outbox):
 * loaded for the account, again whenever main says they changed.
 */
export const useOutboxStore = defineStore('outbox', () => {
  const app = useAppStore()
  const items = ref<OutboxItem[]>([])
  const loading = ref(false)
  const error = ref<AppError | null>(null)

  /** Items that wait for the user or the service: queued and refused (the sidebar's badge). */
  const count = computed(() => items.value.filter((i) => i.state !== 'sending').length)

  async function load(): Promise<void> {
    const accountId = app.accountId
    if (!accountId) {
      items.value = []
      return
    }
    loading.value = true
    try {
      const result = await request('outbox.list', { accountId })
      if (app.accountId !== accountId) return
      if (result.ok) {
        items.value = result.data.filter((i) => i.accountId === accountId)
        error.value = null
      } else error.value = result.error
    } finally {
      loading.value = false
    }
  }

  /** Sends the item (and the account's other queued writes) now. */
  async function retry(id: string): Promise<Result<OutboxItem[]>> {
    const result = await request('outbox.retry', { id })
    if (result.ok) items.value = result.data.filter((i) => i.accountId === app.accountId)
    return result
  }

  /** Drops an item the user decided not to send. */
  async function discard(id: string): Promise<Result<{ discarded: boolean }>> {
    const result = await request('outbox.discard', { id })
    if (result.ok) items.value = items.value.filter((i) => i.id !== id)
    return result
  }

  watch(
    () => app.accountId,
    () => void load(),
    { immediate: true },
  )
  on('outbox.changed', (counts) => {
    if (counts.accountId === app.accountId) void load()
  })

  return { items, loading, error, count, load, retry, discard }
})
