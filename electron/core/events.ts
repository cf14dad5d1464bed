import { EventEmitter } from 'node:events'
import type { EventName } from '@contract/channel-names'
import type { EventPayload } from '@contract/channels'

/** A typed event bus from core to whoever forwards events (IPC wiring, browser-mode SSE). */
export class CoreEvents {
  private readonly emitter = new EventEmitter()

  constructor() {
    this.emitter.setMaxListeners(100)
  }

  /** Publishes one event. */
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    this.emitter.emit(name, payload)
  }

  /** Subscribes; returns the unsubscribe function. */
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    this.emitter.on(name, listener)
    return () => this.emitter.off(name, listener)
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  onAny(
    listener: (name: EventName, payload: unknown) => void,
    names: readonly EventName[],
  ): () => void {
    const offs = names.map((n) => this.on(n, (p) => listener(n, p)))
    return () => offs.forEach((off) => off())
  }
}
