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
/**
 * A running run refreshes the lists it changes at most this often (its events come a few times a
 * second: 5,000 writes would otherwise read the open lists again every few hundred ms).
 */
const REFRESH_MS = 5000

/** The writes a view of a run counts as ended: done, skipped, failed or cancelled. */
export const handled = (run: Pick<BulkRunView, 'counts'>) =>
  run.counts.done + run.counts.skipped + run.counts.failed + run.counts.cancelled

/**
 * Whether `incoming` is not older than `current`. Events and answers travel apart (an answer read
 * before the run's last event can arrive after it): an older view would put back counts that
 * moved on, and after a run's last event nothing comes to mend them. Main changes `updatedAt` with
 * every write's move; two views of one millisecond are ordered by the writes they count as ended
 * (within a millisecond a run only moves forward: Retry puts failed writes back in a later one).
 */
function notOlder(incoming: BulkRunView, current: BulkRunView | undefined): boolean {
  const a = Date.parse(incoming.updatedAt)
  const b = Date.parse(current?.updatedAt ?? '')
  if (!current || Number.isNaN(a) || Number.isNaN(b)) return true
  return a !== b ? a > b : handled(incoming) >= handled(current)
}

export const useBulkStore = defineStore('bulk', () => {
  const invalidate = useInvalidation()
  /** The latest counts of each run seen in this window, by id. */
  const runs = ref<Record<string, BulkRunView>>({})

  /** When each run last refreshed the lists (while it sends: at most every REFRESH_MS). */
  const refreshed = new Map<string, number>()

  function take(run: BulkRunView): void {
    const before = runs.value[run.id]
    if (!notOlder(run, before)) return
    runs.value = { ...runs.value, [run.id]: run }
    // Only once the service made something: a run just started has changed nothing yet (the list
    // it was started from, still open beneath, is not read again for nothing).
    const grew = (before?.counts.done ?? 0) < run.counts.done
    const ended = before?.state !== 'finished' && run.state === 'finished'
    const due = Date.now() - (refreshed.get(run.id) ?? -Infinity) >= REFRESH_MS
    if (ended || (grew && due)) {
      refreshed.set(run.id, Date.now())
      void invalidate(run.accountId, ['exceptions', 'vulnerabilities'])
    }
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
      if (notOlder(view, runs.value[runId])) runs.value = { ...runs.value, [runId]: view }
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
