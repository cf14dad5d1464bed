import { ElMessage } from 'element-plus'
import { ref } from 'vue'
import { findOperation, type GroupId, type InputOf, type OperationId } from '@contract/catalog'
import type { Result } from '@contract/errors'
import { callApi, callDynamic, type ApiAnswer, type DynamicInput } from '@/bridge/bridge'
import { useAppStore } from '@/stores/app'
import { useInvalidation } from './invalidation'

export type { DynamicInput }

/** A write finished for an account other than the window's current one (the user switched). */
export const SWITCHED = {
  code: 'UNKNOWN_ACCOUNT',
  message: 'The account changed before the service answered.',
} as const

/** What the user is told when a write was kept in the outbox instead of being sent. */
export const QUEUED_MESSAGE = 'Queued — it will be sent when the service is back (see Outbox).'

/** True when main kept the write in the outbox (no answer of the service: `data` is null). */
export function isQueued(answer: { queued?: { id: string } }): boolean {
  return answer.queued !== undefined
}

/**
 * Runs writes (actions, deletes, bulk deletes) for this window's account and refreshes the reads
 * they change: the operation's own group and any `alsoChanges` groups, for that account only.
 * A write main kept in the outbox (offline, policy "queue") counts as accepted: the user is told
 * it is queued, and nothing is refreshed since nothing changed on the service yet.
 */
export function useOperationCall(alsoChanges: readonly GroupId[] = []) {
  const app = useAppStore()
  const invalidate = useInvalidation()
  const running = ref(0)

  /** Runs a write whose operation is known at compile time (typed input and answer). */
  function run<Id extends OperationId>(
    op: Id,
    input: InputOf<Id> = {},
  ): Promise<Result<ApiAnswer<Id>>> {
    return send(op, (accountId) => callApi(accountId, op, input))
  }

  /** Runs a write chosen at run time (the registry's screens); main checks the input. */
  function runDynamic(op: OperationId, input: DynamicInput = {}) {
    return send(op, (accountId) => callDynamic(accountId, op, input))
  }

  async function send<T extends { queued?: { id: string } }>(
    op: OperationId,
    call: (accountId: string) => Promise<Result<T>>,
  ): Promise<Result<T>> {
    const accountId = app.accountId
    if (!accountId)
      return { ok: false, error: { code: 'UNKNOWN_ACCOUNT', message: 'No account is active.' } }
    running.value++
    try {
      const result = await call(accountId)
      // A read run on demand (a file check) or a calculation sent by POST (calculate hosts)
      // changes nothing; a write refreshes what it changed.
      const def = findOperation(op)
      if (result.ok && isQueued(result.data)) ElMessage.info(QUEUED_MESSAGE)
      else if (result.ok && def && def.method !== 'GET' && !def.computeOnly)
        void invalidate(accountId, [def.group, ...alsoChanges])
      if (result.ok && app.accountId !== accountId) return { ok: false, error: { ...SWITCHED } }
      return result
    } finally {
      running.value--
    }
  }

  return { run, runDynamic, running }
}
