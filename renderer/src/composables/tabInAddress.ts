import { ref, watch, type Ref } from 'vue'
import { useRoute, useRouter } from 'vue-router'

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
      const names = list.map((t) => t.name)
      active.value = names.includes(String(wanted)) ? String(wanted) : (names[0] ?? '')
    },
    { immediate: true },
  )
  function choose(name: string | number): void {
    void router.replace({ query: { ...route.query, tab: String(name) } })
  }
  return { active, choose }
}
