import { computed } from 'vue'
import { useRecord } from '@/data/useRecord'

/**
 * The signed-in user's permission strings (`<area>.<verb>`). Where the service grants writes by
 * area (`targets.write`), a write in an area not granted is not offered; a service that names
 * permissions some other way hides nothing (it still refuses with 403, which the user sees).
 */
export function usePermissions() {
  const read = useRecord('user.permissions', {}, { staleTime: 5 * 60_000 })
  const list = computed(() => read.record.value?.permissions ?? null)
  function canWrite(area: string): boolean {
    const all = list.value
    if (!all || !all.some((p) => p.endsWith('.write'))) return true
    return all.includes(`${area}.write`)
  }
  /** The answer (or its refusal) is in: what is offered no longer changes for lack of it. */
  const settled = computed(
    () =>
      !read.available.value || (!read.loading.value && (!!read.data.value || !!read.error.value)),
  )
  return { list, canWrite, settled }
}
