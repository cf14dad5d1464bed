/** Running calls by request id, so `api.cancel` can abort one. */
export class CancelRegistry {
  private readonly running = new Map<string, AbortController>()

  /** Registers a call; the returned signal aborts when the id is cancelled. */
  start(requestId: string): AbortSignal {
    this.running.get(requestId)?.abort()
    const controller = new AbortController()
    this.running.set(requestId, controller)
    return controller.signal
  }

  /** Forgets a finished call (only if it is still the registered one). */
  finish(requestId: string, signal: AbortSignal): void {
    if (this.running.get(requestId)?.signal === signal) this.running.delete(requestId)
  }

  /** Aborts a running call; false when no call with that id is running. */
  cancel(requestId: string): boolean {
    const controller = this.running.get(requestId)
    if (!controller) return false
    this.running.delete(requestId)
    controller.abort()
    return true
  }

  /** Aborts every running call (on shutdown). */
  cancelAll(): void {
    for (const controller of this.running.values()) controller.abort()
    this.running.clear()
  }

  /** How many calls are running. */
  get size(): number {
    return this.running.size
  }
}
