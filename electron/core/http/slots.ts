// A count of places: at most `size` holders at once, the others waiting in order. Written here
// rather than taken from p-limit or p-queue: a waiter must leave the queue the moment its signal
// fires (a cancelled download may not wait for its turn to fail), which their CommonJS majors
// cannot do, and the whole of it is the few lines below.

/** At most `size` holders at once; the others wait in order. */
export class Slots {
  private held = 0
  private readonly waiting: (() => void)[] = []

  constructor(readonly size: number) {}

  /** Holders now, and callers waiting for a place. */
  get counts(): { held: number; waiting: number } {
    return { held: this.held, waiting: this.waiting.length }
  }

  /**
   * Resolves with the place's release (calling it more than once does nothing) once a place is
   * free; rejects with `cancelled()` if `signal` fires first, leaving the queue at once.
   */
  take(signal: AbortSignal | undefined, cancelled: () => Error): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(cancelled())
    if (this.held < this.size) {
      this.held++
      return Promise.resolve(this.release())
    }
    return new Promise<() => void>((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort)
        resolve(this.release())
      }
      const onAbort = () => {
        const i = this.waiting.indexOf(grant)
        if (i >= 0) this.waiting.splice(i, 1)
        reject(cancelled())
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.waiting.push(grant)
    })
  }

  /** A place's release: hands the place to the first waiter, or frees it. */
  private release(): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.waiting.shift()
      if (next) next()
      else this.held--
    }
  }
}
