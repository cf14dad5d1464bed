import { defineStore } from 'pinia'
import { shallowRef } from 'vue'

/** A question before a destructive or costly action. */
export interface ConfirmRequest {
  title: string
  /** What will happen, e.g. "Delete 3 targets?" (the host adds the account and organization). */
  message: string
  /** What it costs or what cannot be undone. */
  detail?: string
  /** Things the question is about, listed under the message (empty fields, names). */
  items?: string[]
  confirmLabel: string
  /** The label of the answer "no" (default Cancel), e.g. "Go back to fill them". */
  cancelLabel?: string
  danger: boolean
  /** Test id of the dialog's parts: `<id>-text` and `<id>` (the confirm button). */
  testId?: string
}

/** The one confirmation dialog of the window: `ask` opens it and resolves to the user's answer. */
export const useConfirmStore = defineStore('confirm', () => {
  const pending = shallowRef<(ConfirmRequest & { resolve: (ok: boolean) => void }) | null>(null)

  /** Shows the question (a question already open is answered "no"). */
  function ask(request: ConfirmRequest): Promise<boolean> {
    pending.value?.resolve(false)
    return new Promise((resolve) => {
      pending.value = { ...request, resolve }
    })
  }

  // Callers waiting for the dialog to finish closing (it hands the focus back as it goes).
  let closing = false
  let waiting: (() => void)[] = []

  /** Answers the open question. */
  function answer(ok: boolean): void {
    const current = pending.value
    pending.value = null
    if (current) closing = true
    current?.resolve(ok)
  }

  /** The host says the dialog has finished closing. */
  function closed(): void {
    closing = false
    const done = waiting
    waiting = []
    for (const resolve of done) resolve()
  }

  /**
   * Resolves once the dialog has finished closing, so the caret can be moved after an answer (the
   * dialog gives the focus back to where it was as it closes).
   */
  function whenClosed(): Promise<void> {
    if (!closing && !pending.value) return Promise.resolve()
    return new Promise((resolve) => waiting.push(resolve))
  }

  return { pending, ask, answer, closed, whenClosed }
})

/** "3 targets" / "1 target". */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`
}
