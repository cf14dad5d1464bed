import { computed } from 'vue'
import { useRoute, useRouter } from 'vue-router'
import type { ColumnDef, ResourceDef } from '@/resources'
import { COLUMNS_KEY } from '@/stores/savedViews'

/**
 * A list's visible columns in their order, kept in the address (`columns=title,severity`) on a
 * page's main list, so a saved view (a named address) and a copied address keep them: the
 * resource's own columns when the address names none it knows.
 */
export function useColumnsInAddress(resource: ResourceDef, enabled: () => boolean) {
  const route = useRoute()
  const router = useRouter()
  const all = resource.columns as readonly ColumnDef[]
  const named = computed(() => {
    const raw = enabled() ? route.query[COLUMNS_KEY] : undefined
    if (typeof raw !== 'string' || !raw) return null
    const keys = raw.split(',').filter((k, i, list) => list.indexOf(k) === i)
    const chosen = keys.flatMap((k) => all.filter((c) => c.key === k))
    return chosen.length ? chosen : null
  })
  const columns = computed<readonly ColumnDef[]>(() => named.value ?? all)
  /** Shows these columns in this order (the resource's own: the address names none). */
  function setColumns(keys: readonly string[]): void {
    const same = keys.length === all.length && keys.every((k, i) => all[i].key === k)
    const query = { ...route.query }
    if (same || !keys.length) delete query[COLUMNS_KEY]
    else query[COLUMNS_KEY] = keys.join(',')
    void router.replace({ query })
  }
  return { columns, all, setColumns }
}
