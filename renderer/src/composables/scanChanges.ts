import { computed, onScopeDispose, ref, watch } from 'vue'
import { useRoute, useRouter } from 'vue-router'
import type { ChangesAnswer, ScanRunChoice } from '@contract/changes'
import type { AppError } from '@contract/errors'
import { on, request } from '@/bridge/bridge'
import { useAppStore } from '@/stores/app'

/** Two runs chosen to compare (earlier, later); null: the latest run against the one before. */
export type RunPair = { from: string; to: string } | null

/** A run id as the service gives it (the contract's rule for `from` and `to`). */
const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/

/** The pair an address names (`?from=&to=`), or null when it names none (or not two runs). */
export function pairInAddress(query: Record<string, unknown>): RunPair {
  const { from, to } = query
  if (typeof from !== 'string' || typeof to !== 'string') return null
  return RUN_ID.test(from) && RUN_ID.test(to) && from !== to ? { from, to } : null
}

const startOf = (run: ScanRunChoice | undefined) =>
  Date.parse(run?.startedAt ?? run?.finishedAt ?? '') || 0

/**
 * A scan's Changes for this window's account: the runs of its history that may be compared (each
 * saying whether ScanDesk keeps a snapshot of it; asking takes the latest run's when it has none)
 * and the comparison of the chosen pair. The pair lives in the address (`?from=&to=`, so a reload
 * or a shared link compares the same runs); none chosen is the latest two completed runs. Asked
 * again when the pair, the scan, the account or its last run (`lastRun`: the scan's finish time)
 * changes and when main took a snapshot of this scan; an answer that arrives after a newer
 * question is dropped.
 */
export function useScanChanges(scanId: () => string, lastRun: () => unknown = () => null) {
  const app = useAppStore()
  const route = useRoute()
  const router = useRouter()
  const runs = ref<ScanRunChoice[]>([])
  const answer = ref<ChangesAnswer | null>(null)
  const notes = ref<string[]>([])
  const error = ref<AppError | null>(null)
  const loading = ref(false)
  const pair = computed<RunPair>(() => pairInAddress(route.query))
  let asked = 0
  let question = ''

  async function load(): Promise<void> {
    const accountId = app.accountId
    if (!accountId) return
    const mine = ++asked
    const id = scanId()
    const chosen = pair.value
    // Another question: the previous answer is not this one's (a refresh keeps it meanwhile).
    const now = JSON.stringify([accountId, id, chosen])
    if (now !== question) answer.value = null
    question = now
    loading.value = true
    const [listed, compared] = await Promise.all([
      request('changes.snapshots', { accountId, scanId: id }),
      request('changes.compare', { accountId, scanId: id, ...(chosen ?? {}) }),
    ])
    if (mine !== asked) return
    loading.value = false
    if (listed.ok) {
      runs.value = listed.data.runs
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

  /** The runs compared now: the chosen pair, else the ones the answer names. */
  const shown = computed(() => ({
    from: pair.value?.from ?? answer.value?.from?.runId ?? null,
    to: pair.value?.to ?? answer.value?.to?.runId ?? null,
  }))

  /**
   * Chooses the earlier (`from`) or later (`to`) run; the other stays as shown. The pair goes to
   * the address earlier run first, whichever picker named it.
   */
  function choose(side: 'from' | 'to', runId: string): void {
    const other = side === 'from' ? shown.value.to : shown.value.from
    if (!other || other === runId) return
    const run = (id: string) => runs.value.find((r) => r.runId === id)
    const named = side === 'from' ? [runId, other] : [other, runId]
    const [from, to] = startOf(run(named[0])) > startOf(run(named[1])) ? named.reverse() : named
    void router.replace({ query: { ...route.query, from, to } })
  }

  /** Back to the latest run against the one before (the pair leaves the address). */
  function latest(): void {
    const query = { ...route.query }
    delete query.from
    delete query.to
    void router.replace({ query })
  }

  watch(
    [scanId, () => app.accountId, () => JSON.stringify(pair.value), lastRun],
    () => void load(),
    { immediate: true },
  )
  const off = on('changes.snapshotTaken', (p) => {
    if (p.accountId === app.accountId && p.scanId === scanId()) void load()
  })
  onScopeDispose(off)

  return { runs, answer, notes, error, loading, pair, shown, choose, latest, reload: load }
}
