import { useTimeoutFn } from '@vueuse/core'
import { ref, watch, type Ref } from 'vue'

/** How long work may run before a loading indicator appears (avoids flicker on fast answers). */
export const LOADING_DELAY_MS = 100

/**
 * A flag that follows `source` but turns on only once `source` has stayed true for `delayMs`;
 * it turns off at once. Must run inside a component setup or a store.
 */
export function useDelayedFlag(source: () => boolean, delayMs = LOADING_DELAY_MS): Ref<boolean> {
  const shown = ref(false)
  const showSoon = useTimeoutFn(() => (shown.value = true), delayMs, { immediate: false })
  watch(
    source,
    (on) => {
      showSoon.stop()
      if (!on) shown.value = false
      else if (!shown.value) showSoon.start()
    },
    { immediate: true },
  )
  return shown
}
