import { watch, type WatchStopHandle } from 'vue'
import { useRoute, useRouter } from 'vue-router'
import type { ResourceDef } from '@/resources'
import { useSavedViewsStore } from '@/stores/savedViews'

/**
 * A list opened with nothing chosen in its address (its group from the sidebar, a plain link)
 * opens as its default saved view, once the account's views are read. Only on entry: a list the
 * user then clears stays cleared.
 */
export function useDefaultView(resource: ResourceDef, enabled: () => boolean): void {
  const route = useRoute()
  const router = useRouter()
  const store = useSavedViewsStore()
  const path = route.path
  const pristine = () => Object.keys(route.query).every((k) => k === 'tab')
  if (!enabled() || !pristine()) return
  let stop: WatchStopHandle | null = null
  let done = false
  stop = watch(
    () => store.loaded,
    (loaded) => {
      if (!loaded || done) return
      done = true
      stop?.()
      const view = store.defaultFor(resource.key)
      if (view && enabled() && route.path === path && pristine())
        void router.replace(store.routeOf(view))
    },
    { immediate: true },
  )
  if (done) stop()
}
