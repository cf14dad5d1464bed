import { onScopeDispose, ref, watch } from 'vue'
import type { ChangesAnswer, SnapshotSummary } from '@contract/changes'
import type { AppError } from '@contract/errors'
import { on, request } from '@/bridge/bridge'
import { useAppStore } from '@/stores/app'

/** Two runs chosen to compare (earlier, later); null: the latest run against the one before. */
export type RunPair = { from: string; to: string } | null

/**
 * A scan's Changes for this window's account: the runs ScanDesk keeps a snapshot of (asking
 * takes the latest run's when it has none) and the comparison of the chosen pair. Asked again
 * when the pair, the scan, the account or its last run (`lastRun`: the scan's finish time)
 * changes and when main took a snapshot of this scan; an
 * answer that arrives after a newer question is dropped.
 */
export function useScanChanges(scanId: () => string, lastRun: () => unknown = () => null) {
  const app = useAppStore()
  const snapshots = ref<SnapshotSummary[]>([])
  const answer = ref<ChangesAnswer | null>(null)
  const notes = ref<string[]>([])
  const error = ref<AppError | null>(null)
  const loading = ref(false)
  const pair = ref<RunPair>(null)
  let asked = 0

  async function load(): Promise<void> {
    const accountId = app.accountId
    if (!accountId) return
    const mine = ++asked
    loading.value = true
    const id = scanId()
    const [listed, compared] = await Promise.all([
      request('changes.snapshots', { accountId, scanId: id }),
      request('changes.compare', { accountId, scanId: id, ...(pair.value ?? {}) }),
    ])
    if (mine !== asked) return
    loading.value = false
    if (listed.ok) {
      snapshots.value = listed.data.snapshots
      notes.value = listed.data.notes
    }
    if (compared.ok) {
      answer.value = compared.data
      error.value = null
    } else {
      answer.value = null
      error.value = compared.error
    }
  }

  watch([scanId, () => app.accountId, pair, lastRun], () => void load(), { immediate: true })
  const off = on('changes.snapshotTaken', (p) => {
    if (p.accountId === app.accountId && p.scanId === scanId()) void load()
  })
  onScopeDispose(off)

  return { snapshots, answer, notes, error, loading, pair, reload: load }
}
