import { computed, onScopeDispose, ref, watch } from 'vue'
import type { AppError } from '@contract/errors'
import { callApi, cancelRequest, newRequestId } from '@/bridge/bridge'
import { useAccountsStore } from '@/stores/accounts'
import { useDelayedFlag } from './delayedFlag'

/** One row of a server-side list: the resource id and its attributes. */
export interface ListRow<A> {
  id: string
  attributes: A
}

/** Sort state as Element Plus tables report it. */
export interface SortState {
  prop: string | null
  order: 'ascending' | 'descending' | null
}

type ListOp = 'reports.list' | 'advanced_reports.list'

/** How long the search box waits after the last key before asking the service. */
export const SEARCH_DEBOUNCE_MS = 300

/**
 * A server-side paged, sorted and searched list of one catalog list operation for the active
 * account. Answers for an older request or another account are dropped; switching accounts
 * starts again at page 1.
 */
export function useServerList<A>(op: ListOp, defaultSort = '-created_at') {
  const accounts = useAccountsStore()
  const rows = ref<ListRow<A>[]>([])
  const total = ref(0)
  const page = ref(1)
  const perPage = ref(25)
  const sort = ref(defaultSort)
  const search = ref('')
  const loading = ref(false)
  const error = ref<AppError | null>(null)
  const selected = ref<string[]>([])
  const showLoading = useDelayedFlag(() => loading.value)
  let current: string | null = null
  let timer: ReturnType<typeof setTimeout> | null = null

  const sortState = computed(() => ({
    prop: sort.value.replace(/^-/, ''),
    order: (sort.value.startsWith('-') ? 'descending' : 'ascending') as 'descending' | 'ascending',
  }))

  /** Asks the service for the current page. */
  async function load(): Promise<void> {
    const accountId = accounts.activeId
    if (!accountId) return
    if (current) cancelRequest(current)
    const requestId = newRequestId()
    current = requestId
    loading.value = true
    const query: Record<string, string | number> = {
      page: page.value,
      per_page: perPage.value,
      sort: sort.value,
    }
    if (search.value.trim()) query.search = search.value.trim()
    const result = await callApi(accountId, op, { query } as never, requestId)
    if (current !== requestId || accounts.activeId !== accountId) return
    current = null
    loading.value = false
    if (result.ok) {
      const answer = result.data.data as {
        data: ListRow<A>[]
        meta?: { pagination?: { total_count?: number } }
      }
      rows.value = answer.data.map((r) => ({ id: r.id, attributes: r.attributes }))
      total.value = answer.meta?.pagination?.total_count ?? answer.data.length
      error.value = null
      const present = new Set(rows.value.map((r) => r.id))
      selected.value = selected.value.filter((id) => present.has(id))
    } else if (result.error.code !== 'CANCELLED') error.value = result.error
  }

  /** Goes to a page (1-based). */
  function setPage(next: number): Promise<void> {
    page.value = next
    return load()
  }

  /** Changes the page size and goes back to page 1. */
  function setPerPage(next: number): Promise<void> {
    perPage.value = next
    page.value = 1
    return load()
  }

  /** Sorts by a column as the table reports it; no order means the default sort. */
  function setSort(s: SortState): Promise<void> {
    sort.value = s.prop && s.order ? (s.order === 'descending' ? '-' : '') + s.prop : defaultSort
    page.value = 1
    return load()
  }

  /** Changes the search text; the service is asked once typing pauses. */
  function setSearch(text: string): void {
    search.value = text
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = null
      page.value = 1
      void load()
    }, SEARCH_DEBOUNCE_MS)
  }

  watch(
    () => accounts.activeId,
    (id, previous) => {
      if (!id || id === previous) return
      rows.value = []
      selected.value = []
      total.value = 0
      page.value = 1
      void load()
    },
    { immediate: true },
  )
  onScopeDispose(() => {
    if (timer) clearTimeout(timer)
    if (current) cancelRequest(current)
  })

  return {
    rows,
    total,
    page,
    perPage,
    sort,
    sortState,
    search,
    loading,
    showLoading,
    error,
    selected,
    load,
    setPage,
    setPerPage,
    setSort,
    setSearch,
  }
}
