import { useIntervalFn } from '@vueuse/core'
import { onUnmounted, ref, shallowRef } from 'vue'
import type { GroupId, OperationId } from '@contract/catalog'
import type { AppError } from '@contract/errors'
import { answered } from '@/data/envelope'
import { useOperationCall } from '@/data/useOperationCall'
import type { ResourceRow } from '@/composables/resourceActions'
import { toRow } from '@/resources'

/** Where a run shown in a dialog is: not started, waiting for the service, answered, refused. */
export type RunState = 'idle' | 'running' | 'done' | 'failed'

/**
 * One write on one row that the user watches in a dialog (verify a scanner, sync a port list):
 * the call through the data layer (the group's reads refreshed), the seconds it has been running,
 * the row the service answered with or its error; `start` again retries.
 */
export function useRunInDialog(op: OperationId, alsoChanges: readonly GroupId[] = []) {
  const { runDynamic } = useOperationCall(alsoChanges)
  const state = ref<RunState>('idle')
  const answer = shallowRef<ResourceRow | null>(null)
  const error = shallowRef<AppError | null>(null)
  const elapsed = ref(0)
  const clock = useIntervalFn(() => elapsed.value++, 1000, { immediate: false })
  let token = 0

  /** Runs the operation on the row `id`; a run started while one is out supersedes it. */
  async function start(id: string): Promise<void> {
    const mine = ++token
    state.value = 'running'
    error.value = null
    answer.value = null
    elapsed.value = 0
    clock.resume()
    const result = await runDynamic(op, { path: { id } })
    if (mine !== token) return
    clock.pause()
    if (result.ok) {
      answer.value = toRow(answered(result.data))
      state.value = 'done'
    } else {
      error.value = result.error
      state.value = 'failed'
    }
  }

  onUnmounted(() => {
    token++
    clock.pause()
  })

  return { state, answer, error, elapsed, start }
}
