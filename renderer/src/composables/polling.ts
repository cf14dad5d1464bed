import { useDocumentVisibility, useTimeoutFn } from '@vueuse/core'
import { onScopeDispose, readonly, ref, toValue, watch, type MaybeRefOrGetter } from 'vue'
import type { AppError, ErrorCode } from '@contract/errors'

/** Options of a poll. */
export interface PollingOptions {
  /** Poll while this holds (a running scan); false stops the poll and clears its timer. */
  active: MaybeRefOrGetter<boolean>
  /** The first and shortest interval, in ms (and the interval after a change). */
  minMs?: number
  /** The longest interval, in ms. */
  maxMs?: number
  /** How much longer the next interval is after an answer that changed nothing. */
  factor?: number
  /** After the window has been hidden this long (ms), the poll pauses until it is visible again. */
  hiddenPauseMs?: number
}

/** The defaults: 2 s, doubled after every unchanged answer up to 30 s; paused after 1 min hidden. */
export const POLLING_DEFAULTS = {
  minMs: 2_000,
  maxMs: 30_000,
  factor: 2,
  hiddenPauseMs: 60_000,
} as const

/**
 * Polls with backoff: `poll` runs after `minMs`, then after ever longer intervals (× `factor`, up
 * to `maxMs`) while it answers false ("nothing changed"); an answer of true, or `reset()`, goes
 * back to `minMs`. Polling runs only while `active` holds. Once the window has been hidden
 * (document.visibilityState) for `hiddenPauseMs` it pauses; when the window is visible again it
 * polls at once and starts over at `minMs`. Runs in a component's setup (or any effect scope):
 * everything stops with it.
 */
export function usePolling(poll: () => Promise<boolean> | boolean, options: PollingOptions) {
  const minMs = options.minMs ?? POLLING_DEFAULTS.minMs
  const maxMs = options.maxMs ?? POLLING_DEFAULTS.maxMs
  const factor = options.factor ?? POLLING_DEFAULTS.factor
  const hiddenPauseMs = options.hiddenPauseMs ?? POLLING_DEFAULTS.hiddenPauseMs

  /** The interval before the next poll. */
  const delay = ref(minMs)
  /** True while paused because the window was hidden for long. */
  const paused = ref(false)
  /** True while a poll's answer is awaited. */
  const polling = ref(false)

  let disposed = false
  const active = () => !disposed && toValue(options.active)
  /** The next poll, `delay` after it was scheduled. */
  const next = useTimeoutFn(() => void tick(), delay, { immediate: false })
  /** The pause once the window has stayed hidden for `hiddenPauseMs`. */
  const pauseSoon = useTimeoutFn(
    () => {
      paused.value = true
      next.stop()
    },
    hiddenPauseMs,
    { immediate: false },
  )

  function schedule(): void {
    next.stop()
    if (active() && !paused.value) next.start()
  }

  async function tick(): Promise<void> {
    if (!active() || paused.value) return
    polling.value = true
    let changed: boolean
    try {
      changed = await poll()
    } catch {
      changed = false
    } finally {
      polling.value = false
    }
    delay.value = changed ? minMs : Math.min(maxMs, Math.round(delay.value * factor))
    schedule()
  }

  /** Back to the shortest interval (something happened: a start, a stop, a changed answer). */
  function reset(): void {
    delay.value = minMs
    schedule()
  }

  watch(
    () => toValue(options.active),
    (on) => {
      if (on) reset()
      else next.stop()
    },
    { immediate: true },
  )

  watch(
    useDocumentVisibility(),
    (visibility) => {
      if (visibility === 'hidden') {
        if (!pauseSoon.isPending.value) pauseSoon.start()
        return
      }
      pauseSoon.stop()
      if (!paused.value) return
      paused.value = false
      delay.value = minMs
      void tick()
    },
    { immediate: true, flush: 'sync' },
  )

  onScopeDispose(() => {
    disposed = true
  })

  return {
    delay: readonly(delay),
    paused: readonly(paused),
    polling: readonly(polling),
    reset,
  }
}

/** Failures that pass by themselves (the service out of reach, busy or slow): a poll goes on. */
const PASSING: readonly ErrorCode[] = ['OFFLINE', 'TIMEOUT', 'SERVER', 'RATE_LIMITED', 'CANCELLED']

/**
 * Asks a read again while `live` holds (a scan that runs), with usePolling's backoff: back to the
 * shortest interval whenever `signature` (what the screen shows of the answer) changed. A failure
 * that passes by itself does not stop it (the next ask may succeed, at ever longer intervals); a
 * refusal or a record gone does.
 */
export function usePolledRead(
  read: { retry: () => Promise<void>; error: { readonly value: AppError | null } },
  signature: () => string,
  live: () => boolean,
  options: Partial<PollingOptions> = {},
) {
  return usePolling(
    async () => {
      const before = signature()
      await read.retry()
      return signature() !== before
    },
    {
      ...options,
      active: () => live() && (!read.error.value || PASSING.includes(read.error.value.code)),
    },
  )
}
