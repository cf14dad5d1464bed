import { computed, ref, watch, type MaybeRefOrGetter, toValue } from 'vue'
import type { ScanStatus } from '@contract/catalog/scans'
import { askNotifyOnce, notify, notifyState } from '@/composables/notify'
import { usePolledRead, type PollingOptions } from '@/composables/polling'
import { RUN_END_GROUPS, useInvalidation } from '@/data/invalidation'
import type { RecordOf } from '@/data/envelope'
import { useRecord } from '@/data/useRecord'
import { useAppStore } from '@/stores/app'
import { FINISHED_STATES, LIVE_STATES } from '@/utils/scanStates'

export { FINISHED_STATES, LIVE_STATES }

/** Scan record as scans.show answers it. */
export type Scan = RecordOf<'scans.show'>

const FINISH_WORDS: Record<string, string> = {
  completed: 'completed',
  stopped: 'was stopped',
  failed: 'failed',
}

/** The notification for a finished run. */
export function finishMessage(scan: Scan): { title: string; body: string } {
  const a = scan.attributes
  const title = `Scan “${a.name}” ${FINISH_WORDS[a.status] ?? a.status}`
  if (a.status === 'failed') return { title, body: a.failure_reason ?? 'The scan failed.' }
  const body =
    a.status === 'completed'
      ? `${a.vulnerabilities_count} findings on ${a.hosts_count} hosts.`
      : `Stopped at ${a.progress}%.`
  return { title, body }
}

/** The tag of a run's notification: one per account, scan and start, whichever view saw it end. */
export function finishTag(accountId: string, scanId: string, startedAt?: string | null): string {
  return `scan-finished:${accountId}:${scanId}:${startedAt ?? ''}`
}

/**
 * One scan kept up to date while it runs: scans.show asked again with backoff (usePolledRead: 2 s
 * up to 30 s, back to 2 s when status or progress changed; paused while the window is hidden
 * for long; on through failures that pass by themselves) until it is finished, stopped or failed. When a run this window watched ends, the
 * account's scan, host and vulnerability reads are refreshed and one native notification says
 * how it ended.
 */
export function useScanLive(id: MaybeRefOrGetter<string>, polling: Partial<PollingOptions> = {}) {
  const app = useAppStore()
  const invalidate = useInvalidation()
  const read = useRecord('scans.show', () => ({ path: { id: toValue(id) } }))
  const scan = computed<Scan | null>(() => read.record.value ?? null)
  const status = computed<ScanStatus | null>(() => scan.value?.attributes.status ?? null)
  const live = computed(() => !!status.value && LIVE_STATES.includes(status.value))
  /** Where notifications stand (a view offers to ask while it is 'default'). */
  const notifications = ref(notifyState())

  const signature = () => JSON.stringify([status.value, scan.value?.attributes.progress])
  const poll = usePolledRead(read, signature, () => live.value, polling)

  // A run counts as watched once this window saw the scan live; its end is announced once.
  let watchedRun: string | null = null
  watch(
    [() => toValue(id), () => app.accountId, status],
    ([scanId, accountId, next], previous) => {
      const [previousId, previousAccount] = previous ?? []
      if (scanId !== previousId || accountId !== previousAccount) watchedRun = null
      const current = scan.value
      if (!current || !accountId || current.id !== scanId) return
      if (next && LIVE_STATES.includes(next)) {
        watchedRun = finishTag(accountId, scanId, current.attributes.started_at)
        return
      }
      if (watchedRun && next && FINISHED_STATES.includes(next)) {
        const tag = watchedRun
        watchedRun = null
        void invalidate(accountId, RUN_END_GROUPS)
        notify({ ...finishMessage(current), tag })
      }
    },
    { immediate: true },
  )

  /** Asks for notification permission (once ever; call from a click). */
  async function askNotifications(): Promise<void> {
    await askNotifyOnce()
    notifications.value = notifyState()
  }

  return { read, scan, status, live, poll, notifications, askNotifications }
}
