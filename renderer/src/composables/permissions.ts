import { computed } from 'vue'
import { useOperation } from '@/data/useOperation'

/**
 * The signed-in user's permission strings (`<area>.<verb>`). A write is hidden only when the
 * service lists permissions for its area and not the `.write` one; an area it does not mention
 * stays offered (the service still refuses with 403, which the user sees).
 */
export function usePermissions() {
  const read = useOperation('user.permissions', {}, { staleTime: 5 * 60_000 })
  const list = computed(() => read.data.value?.data.permissions ?? null)
  function canWrite(area: string): boolean {
    const all = list.value
    if (!all || !all.some((p) => p.startsWith(`${area}.`))) return true
    return all.includes(`${area}.write`)
  }
  return { list, canWrite }
}
