import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import { findOperation, type GroupId } from '@contract/catalog'
import type { AppError, Result } from '@contract/errors'
import type { OutboxItem } from '@contract/offline'
import { on, request } from '@/bridge/bridge'
import { useInvalidation } from '@/data/invalidation'
import { useAppStore } from './app'
import { withBusy } from '@/utils/busy'

/** The groups whose reads the items that left the queue (sent) have changed. */
export function sentGroups(before: readonly OutboxItem[], after: readonly OutboxItem[]): GroupId[] {
  const left = before.filter((b) => b.state !== 'failed' && !after.some((a) => a.id === b.id))
  const groups = left.flatMap((i) => findOperation(i.op)?.group ?? [])
  return [...new Set(groups)]
}

/**
 * The writes of this window's account kept to be sent when its service is back (the outbox):
 * loaded for the account, again whenever main says they changed. When items leave the queue
 * (main sent them), the account's reads they change are asked again, so a row shown as pending
 * ("Read (pending)") shows what the service now says.
 */
export const useOutboxStore = defineStore('outbox', () => {
  const app = useAppStore()
  const invalidate = useInvalidation()
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
    await withBusy(loading, async () => {
      const result = await request('outbox.list', { accountId })
      if (app.accountId !== accountId) return
      if (result.ok) {
        take(accountId, result.data)
        error.value = null
      } else error.value = result.error
    })
  }

  /** Keeps the account's items of main's answer; reads changed by what was sent are refreshed. */
  function take(accountId: string, answer: readonly OutboxItem[]): void {
    const next = answer.filter((i) => i.accountId === accountId)
    const groups = sentGroups(items.value, next)
    items.value = next
    if (groups.length) void invalidate(accountId, groups)
  }

  /** Sends the item (and the account's other queued writes) now. */
  async function retry(id: string): Promise<Result<OutboxItem[]>> {
    const accountId = app.accountId
    const result = await request('outbox.retry', { id })
    if (result.ok && accountId && accountId === app.accountId) take(accountId, result.data)
    return result
  }

  /** Drops an item the user decided not to send. */
  async function discard(id: string): Promise<Result<{ discarded: boolean }>> {
    const result = await request('outbox.discard', { id })
    if (result.ok) items.value = items.value.filter((i) => i.id !== id)
    return result
  }

  // Another account: none of the previous one's items stay (nor count as sent).
  watch(
    () => app.accountId,
    () => {
      items.value = []
      void load()
    },
    { immediate: true },
  )
  on('outbox.changed', (counts) => {
    if (counts.accountId === app.accountId) void load()
  })

  return { items, loading, error, count, load, retry, discard }
})
