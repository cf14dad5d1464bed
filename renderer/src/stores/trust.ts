import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import type { AppError, Result, TrustConfirmation } from '@contract/errors'

/**
 * Browser mode's confirmation of a change of what main trusts (a CA bundle, plain http): main has
 * no dialog of its own there, so it answers CONFIRMATION_REQUIRED with what would be trusted and a
 * phrase; the user types it in TrustConfirmDialog and the request goes again with it. (Electron's
 * main asks in a native dialog and never answers this.)
 */
export const useTrustStore = defineStore('trust', () => {
  const pending = shallowRef<
    (TrustConfirmation & { resolve: (typed: string | null) => void }) | null
  >(null)

  /** Shows the question; resolves to what the user typed, or null when they cancelled. */
  function ask(confirmation: TrustConfirmation): Promise<string | null> {
    pending.value?.resolve(null)
    return new Promise((resolve) => {
      pending.value = { ...confirmation, resolve }
    })
  }

  function answer(typed: string | null): void {
    const current = pending.value
    pending.value = null
    current?.resolve(typed)
  }

  /**
   * Sends `send()`; when main asks for a typed confirmation, asks the user and sends again with
   * it (a wrong phrase asks again; cancelling answers the refusal as it came).
   */
  async function confirmed<T>(
    send: (trustConfirmation?: string) => Promise<Result<T>>,
  ): Promise<Result<T>> {
    let result = await send()
    for (let tries = 0; tries < 3; tries++) {
      const confirmation = needsConfirmation(result)
      if (!confirmation) return result
      const typed = await ask(confirmation)
      if (typed === null) return result
      result = await send(typed)
    }
    return result
  }

  return { pending, ask, answer, confirmed }
})

function needsConfirmation<T>(result: Result<T>): TrustConfirmation | null {
  if (result.ok) return null
  const error: AppError = result.error
  return error.code === 'CONFIRMATION_REQUIRED' && error.confirmation ? error.confirmation : null
}
