import { ref, watch, type Ref } from 'vue'
import { useRoute, useRouter, type LocationQueryValue } from 'vue-router'

/** The tab an address names (`?tab=`) when the page has it, else the page's first (or ''). */
export function tabNamed(
  names: readonly string[],
  wanted: LocationQueryValue | LocationQueryValue[] | undefined,
): string {
  return names.includes(String(wanted)) ? String(wanted) : (names[0] ?? '')
}

/**
 * The tab a page shows, kept in the address (`?tab=`, so a reload or a shared link opens it): the
 * one named there when the page has it, else the first; `choose` names another there (replacing
 * the address, not adding to the history).
 */
export function useTabInAddress(tabs: Ref<readonly { name: string }[]>) {
  const route = useRoute()
  const router = useRouter()
  const active = ref('')
  watch(
    [tabs, () => route.query.tab],
    ([list, wanted]) => {
      active.value = tabNamed(
        list.map((t) => t.name),
        wanted,
      )
    },
    { immediate: true },
  )
  function choose(name: string | number): void {
    void router.replace({ query: { ...route.query, tab: String(name) } })
  }
  return { active, choose }
}
