// Reads that fill a screen's lower panels in the background (a trend's scan histories: up to a
// hundred requests of ~400 ms on a large account) go through one limiter, so they never hold
// more than a couple of the connections the window has: in browser mode Chromium opens 6 per
// host, and a list opened just after start would otherwise wait for one (issue 22 §1).
import type { Router } from 'vue-router'

/** One limiter's queue: at most `max` tasks run at once, the others wait in order. */
export interface Limiter {
  /**
   * Runs `task` once fewer than `max` tasks run. An abort of `signal` while it waits takes it
   * out of the queue (it never starts) and rejects with the signal's reason; once started, the
   * task itself answers to the signal.
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>
  /** Tasks running now. */
  readonly running: number
  /** Tasks waiting for their turn. */
  readonly waiting: number
  /**
   * Starts no waiting task until the returned release is called (running ones go on). Holds
   * add up: the queue moves once every hold is released; a release twice counts once.
   */
  hold(): () => void
}

export function createLimiter(max: number): Limiter {
  let running = 0
  let holds = 0
  const queue: (() => void)[] = []
  const next = () => {
    while (holds === 0 && running < max && queue.length) queue.shift()!()
  }
  return {
    run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (signal?.aborted) return Promise.reject(signal.reason)
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          signal?.removeEventListener('abort', leave)
          running++
          new Promise<T>((r) => r(task())).then(resolve, reject).finally(() => {
            running--
            next()
          })
        }
        const leave = () => {
          const at = queue.indexOf(start)
          if (at >= 0) queue.splice(at, 1)
          reject(signal!.reason)
        }
        signal?.addEventListener('abort', leave, { once: true })
        queue.push(start)
        next()
      })
    },
    get running() {
      return running
    },
    get waiting() {
      return queue.length
    },
    hold() {
      holds++
      let released = false
      return () => {
        if (released) return
        released = true
        holds--
        next()
      }
    },
  }
}

/** Background reads at once, across the window. */
export const BACKGROUND_AT_ONCE = 2

/** The window's one limiter of background reads. */
export const backgroundReads = createLimiter(BACKGROUND_AT_ONCE)

/**
 * Holds the window's background reads while the router moves to another screen: the new screen's
 * code and first read get the connections, not the old screen's lower panels (which, if the move
 * goes through, are left before their turn and never asked). The hold ends a task after the move
 * (the old screen is unmounted by then, its waiting reads aborted) or at once when it fails: a
 * move refused or failed leaves the screen as it was, and its panels fill.
 */
export function holdBackgroundReadsWhileNavigating(
  router: Pick<Router, 'beforeEach' | 'afterEach' | 'onError'>,
  limiter: Limiter = backgroundReads,
): void {
  let release: (() => void) | null = null
  const done = () => {
    release?.()
    release = null
  }
  router.beforeEach(() => {
    release ??= limiter.hold()
  })
  router.afterEach(() => void setTimeout(done, 0))
  router.onError(done)
}
