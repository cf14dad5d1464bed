import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { BulkRunDetails, BulkRunView } from '@contract/bulk'
import type { ChannelInput } from '@contract/channels'
import type { Result } from '@contract/errors'
import { on, request } from '@/bridge/bridge'
import { useInvalidation } from '@/data/invalidation'

/**
 * Bulk runs (main's engine: one write per record through the outbox): started here, their counts
 * kept current from main's `bulk.changed` events; a run that finishes refreshes the account's
 * exceptions and vulnerabilities.
 */
export const useBulkStore = defineStore('bulk', () => {
  const invalidate = useInvalidation()
  /** The latest counts of each run seen in this window, by id. */
  const runs = ref<Record<string, BulkRunView>>({})

  function take(run: BulkRunView): void {
    const before = runs.value[run.id]
    runs.value = { ...runs.value, [run.id]: run }
    const grew = !before || before.counts.done < run.counts.done
    if (grew || (before.state !== 'finished' && run.state === 'finished'))
      void invalidate(run.accountId, ['exceptions', 'vulnerabilities'])
  }

  let off: (() => void) | null = null
  /** Listens to main's progress events (once per window). */
  function follow(): void {
    off ??= on('bulk.changed', take)
  }

  async function start(input: ChannelInput<'bulk.start'>): Promise<Result<BulkRunView>> {
    follow()
    const result = await request('bulk.start', input)
    if (result.ok) take(result.data)
    return result
  }

  /** A run with its writes: every one, or a page of those in a state (`page` from 1). */
  async function get(
    runId: string,
    page: Omit<ChannelInput<'bulk.get'>, 'runId'> = {},
  ): Promise<Result<BulkRunDetails>> {
    follow()
    const result = await request('bulk.get', { runId, ...page })
    if (result.ok) {
      const { items: _items, matching: _matching, ...view } = result.data
      runs.value = { ...runs.value, [runId]: view }
    }
    return result
  }

  const list = (accountId: string) => request('bulk.list', { accountId })

  async function cancel(runId: string): Promise<Result<BulkRunView>> {
    const result = await request('bulk.cancel', { runId })
    if (result.ok) take(result.data)
    return result
  }

  async function retry(runId: string): Promise<Result<BulkRunView>> {
    const result = await request('bulk.retry', { runId })
    if (result.ok) take(result.data)
    return result
  }

  async function dismiss(runId: string): Promise<Result<{ dismissed: boolean }>> {
    const result = await request('bulk.dismiss', { runId })
    if (result.ok) {
      const { [runId]: _gone, ...rest } = runs.value
      runs.value = rest
    }
    return result
  }

  return { runs, follow, start, get, list, cancel, retry, dismiss }
})
