// How one JSON call is aborted (its deadline, the user's cancel, the account's), made cheap:
// making an AbortSignal and wiring it into axios, and adding and removing a listener on the
// account's signal, cost about a fifth of a call's own work in Node 20 (bench/api-call). A call's
// controller is taken from those of earlier calls that ended unaborted with no listener left,
// and the account's signal gets one listener that aborts every call running under it.
import { getEventListeners } from 'node:events'

/** Controllers of calls that ended unaborted, nothing listening to them any more. */
const idle: AbortController[] = []
const IDLE_MAX = 32

/** A controller for one call: one an earlier call left, or a new one. */
export function takeController(): AbortController {
  return idle.pop() ?? new AbortController()
}

/** The call ended: its controller is kept for the next call if unaborted and unheard. */
export function releaseController(controller: AbortController): void {
  const { signal } = controller
  if (signal.aborted || idle.length >= IDLE_MAX) return
  if (getEventListeners(signal, 'abort').length > 0) return
  idle.push(controller)
}

/** Per signal (an account's): what to run, once, when it aborts. */
const running = new WeakMap<AbortSignal, Set<() => void>>()

/**
 * Runs `onAbort` when `signal` aborts (at once if it has), until the returned function is called.
 * The signal gets one listener however many calls wait on it.
 */
export function whenAborted(signal: AbortSignal, onAbort: () => void): () => void {
  if (signal.aborted) {
    onAbort()
    return () => undefined
  }
  let calls = running.get(signal)
  if (!calls) {
    const all = new Set<() => void>()
    running.set(signal, (calls = all))
    signal.addEventListener('abort', () => [...all].forEach((run) => run()), { once: true })
  }
  const set = calls
  set.add(onAbort)
  return () => void set.delete(onAbort)
}
