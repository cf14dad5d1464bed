import { useIntervalFn, useTimestamp } from '@vueuse/core'
import type { MaybeRefOrGetter } from 'vue'

/**
 * Now, in milliseconds, brought up to date every `interval` ms (a getter may change it: a running
 * scan's clock ticks every second, a finished one's rarely). VueUse's timestamp on its interval
 * timer, stopped with the component that uses it.
 */
export function useClock(interval: MaybeRefOrGetter<number>) {
  return useTimestamp({ scheduler: (tick) => useIntervalFn(tick, interval) })
}
