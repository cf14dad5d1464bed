import { useDebounceFn } from '@vueuse/core'
import { computed, ref, shallowRef, watch, type Ref } from 'vue'
import type { InputOf, OperationId, OutputOf } from '@contract/catalog'
import { useAppStore } from '@/stores/app'
import { rowsOf, totalOf, type RowOf } from './envelope'
import { useOperation, type OperationState } from './useOperation'

/** Operations that answer a paged collection: `{data: [...]}` and a `page` query. */
export type ListOperationId = {
  [K in OperationId]: OutputOf<K> extends { data: readonly unknown[] }
    ? NonNullable<InputOf<K>['query']> extends { page?: unknown }
      ? K
      : never
    : never
}[OperationId]

export type { RowOf }

/** The filters a list operation takes besides paging, sort and search. */
export type FiltersOf<Id extends ListOperationId> = Omit<
  NonNullable<InputOf<Id>['query']>,
  'page' | 'per_page' | 'sort' | 'search'
>

/** Sort state as Element Plus tables report it (no prop or order: the default sort). */
export interface SortState {
  prop: string | null
  order: 'ascending' | 'descending' | null
}

/** How long the search box waits after the last key before asking the service. */
export const SEARCH_DEBOUNCE_MS = 300

/** Options of a list. */
export interface ListOptions<Id extends ListOperationId> {
  /** Sort when the user chose none (`-created_at`: newest first). */
  defaultSort?: string
  perPage?: number
  /** Path parameters of a nested list (`scans.hosts` needs the scan's id). */
  path?: () => InputOf<Id>['path'] | null
  /** Filters set before the first request. */
  filters?: Partial<FiltersOf<Id>>
  /** False holds the read back until it turns true (a pick list not opened yet). */
  enabled?: () => boolean
  /** Search, sort and page set before the first request (a list restored from the address). */
  initial?: Partial<Omit<ListState, 'filters'>>
  /**
   * More of the request's query that is not the list's state (not offered, not in the address):
   * what a page's own filters turn into (the due filters' first-seen range).
   */
  extraQuery?: () => Record<string, string>
}

/** Everything that decides which rows a list shows: what the address and a saved view keep. */
export interface ListState {
  filters: Record<string, unknown>
  /** The search the service was asked (after the typing pause). */
  search: string
  sort: string
  page: number
  perPage: number
}

/**
 * The input of a list's read in `state`: its filters, then the page's `extraQuery`, then paging,
 * sort and search (only when there is one). The one place a list's request is made from its
 * state, so a read started before the list is made (data/firstReads.ts) is the very one it asks.
 */
export function listInput<P extends object>(
  state: ListState,
  extraQuery: Record<string, string>,
  path?: P,
): { path?: P; query: Record<string, unknown> } {
  const query = {
    ...state.filters,
    ...extraQuery,
    page: state.page,
    per_page: state.perPage,
    sort: state.sort,
    ...(state.search ? { search: state.search } : {}),
  }
  return { ...(path ? { path } : {}), query }
}

/**
 * A server-side paged, sorted, searched and filtered list of one catalog list operation for this
 * window's account, on top of useOperation (so it shares its account scope, cancellation,
 * freshness and retry). Rows stay on screen while the next page loads; switching accounts
 * starts again at page 1 with nothing selected.
 */
export function useOperationList<Id extends ListOperationId>(
  op: Id,
  options: ListOptions<Id> = {},
) {
  const app = useAppStore()
  const defaultSort = options.defaultSort ?? '-created_at'
  const initial = options.initial ?? {}
  const page = ref(initial.page ?? 1)
  const perPage = ref(initial.perPage ?? options.perPage ?? 25)
  const sort = ref(initial.sort || defaultSort)
  const search = ref(initial.search ?? '')
  const searchSent = ref(initial.search ?? '')
  const filters = shallowRef<Partial<FiltersOf<Id>>>({ ...options.filters })
  const selected = ref<string[]>([]) as Ref<string[]>

  const input = () => {
    const path = options.path ? options.path() : undefined
    if (path === null) return null
    const state = {
      filters: filters.value,
      search: searchSent.value,
      sort: sort.value,
      page: page.value,
      perPage: perPage.value,
    }
    return listInput(state, options.extraQuery?.() ?? {}, path) as InputOf<Id>
  }
  const state: OperationState<OutputOf<Id>> = useOperation(op, input, {
    keepPrevious: true,
    ...(options.enabled ? { enabled: options.enabled } : {}),
  })

  const envelope = () => state.data.value as { data: RowOf<Id>[] } | undefined
  const rows = computed<RowOf<Id>[]>(() => rowsOf(envelope()))
  const total = computed(() => totalOf(envelope()))
  const empty = computed(() => !state.loading.value && !state.error.value && !rows.value.length)
  const sortState = computed(() => ({
    prop: sort.value.replace(/^-/, ''),
    order: (sort.value.startsWith('-') ? 'descending' : 'ascending') as 'descending' | 'ascending',
  }))

  // Selection keeps only rows still on screen.
  watch(rows, (list) => {
    const present = new Set(list.map((r) => (r as { id: string }).id))
    selected.value = selected.value.filter((id) => present.has(id))
  })
  watch(
    () => app.accountId,
    (id, previous) => {
      if (id === previous) return
      page.value = 1
      selected.value = []
    },
  )

  function setPage(next: number): void {
    page.value = next
  }
  function setPerPage(next: number): void {
    perPage.value = next
    page.value = 1
  }
  /** Sorts by a column as the table reports it; no order means the default sort. */
  function setSort(s: SortState): void {
    sort.value = s.prop && s.order ? (s.order === 'descending' ? '-' : '') + s.prop : defaultSort
    page.value = 1
  }
  const sendSearch = useDebounceFn((text: string) => {
    page.value = 1
    searchSent.value = text.trim()
  }, SEARCH_DEBOUNCE_MS)
  /** Changes the search text; the service is asked once typing pauses. */
  function setSearch(text: string): void {
    search.value = text
    void sendSearch(text)
  }
  /** Replaces the filters (empty values are dropped from the request) and goes to page 1. */
  function setFilters(next: Partial<FiltersOf<Id>>): void {
    filters.value = { ...next }
    page.value = 1
  }

  /** What the list shows now, in one object (the address and saved views keep it). */
  const listState = computed<ListState>(() => ({
    filters: filters.value as Record<string, unknown>,
    search: searchSent.value,
    sort: sort.value,
    page: page.value,
    perPage: perPage.value,
  }))
  /** Puts the list back as a state says, all at once (no page reset, no typing pause). */
  function restore(next: ListState): void {
    filters.value = { ...next.filters } as Partial<FiltersOf<Id>>
    search.value = next.search
    searchSent.value = next.search
    sort.value = next.sort || defaultSort
    perPage.value = next.perPage
    page.value = next.page
  }

  return {
    ...state,
    rows,
    total,
    empty,
    page,
    perPage,
    sort,
    sortState,
    search,
    filters,
    selected,
    setPage,
    setPerPage,
    setSort,
    setSearch,
    setFilters,
    defaultSort,
    listState,
    restore,
  }
}

/** What useOperationList returns. */
export type OperationList<Id extends ListOperationId> = ReturnType<typeof useOperationList<Id>>
