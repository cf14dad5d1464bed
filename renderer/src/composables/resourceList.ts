import { computed, watch } from 'vue'
import { useRoute, type LocationQuery } from 'vue-router'
import { useOperationList, type ListOperationId, type ListState } from '@/data/useOperationList'
import type { ResourceDef } from '@/resources'
import type { ListTrail } from '@/stores/listTrail'
import { stateFromQuery, useListAddress, type ListDefaults } from './listAddress'
import { useLiveRows } from './liveRows'

/** How a page shows a resource's list. */
export interface ResourceListOptions {
  /** Another list operation over the same rows (a "view" tab), or one taking `path`. */
  op?: ListOperationId
  path?: Record<string, string>
  /** Filters fixed by the page (a detail's related list): not offered, always sent. */
  fixed?: Record<string, string>
  compact?: boolean
  /** Whether the list's filters, search, sort and page are kept in the address now. */
  inAddress: () => boolean
  /** More of the query, decided by the page (its own filters turned into the service's terms). */
  extraQuery?: () => Record<string, string>
}

/** A resource's list as it starts with nothing chosen: its default sort, 25 rows (10 compact). */
export function listDefaults(resource: ResourceDef, compact = false): ListDefaults {
  return { sort: resource.defaultSort ?? '-created_at', perPage: compact ? 10 : 25 }
}

/**
 * The state a page's main list of `resource` (no fixed filters, not compact) starts in at an
 * address: what useResourceList reads before its first request.
 */
export function addressedListState(
  resource: ResourceDef,
  op: ListOperationId,
  query: LocationQuery,
): ListState {
  return stateFromQuery(query, op, resource.filters ?? [], listDefaults(resource))
}

/**
 * The list behind ResourceTable: its operation, the filters offered (not the page's fixed ones),
 * kept in the address while `inAddress` (read from it before the first request), asked again
 * while its page holds a row that changes by itself (`resource.live`), and what a CSV export of
 * it sends.
 */
export function useResourceList(resource: ResourceDef, options: ResourceListOptions) {
  const route = useRoute()
  const listOp = options.op ?? resource.ops.list
  const fixed = options.fixed ?? {}
  const filterNames = (resource.filters ?? []).filter((f) => !(f in fixed))
  const defaults = listDefaults(resource, options.compact)
  const fromAddress = options.inAddress()
    ? stateFromQuery(route.query, listOp, filterNames, defaults)
    : undefined
  const list = useOperationList(listOp, {
    defaultSort: defaults.sort,
    perPage: defaults.perPage,
    path: options.path ? () => options.path : undefined,
    filters: { ...fromAddress?.filters, ...fixed },
    initial: fromAddress,
    extraQuery: options.extraQuery,
  })
  // Rows that change by themselves (running scans) stay current while the list is on screen.
  useLiveRows(resource.live, list)
  // The page's own filters changed: their rows start at page 1.
  watch(
    () => JSON.stringify(options.extraQuery?.() ?? {}),
    (now, before) => {
      if (now !== before) list.setPage(1)
    },
  )
  // The filters the user chose (the page's fixed ones are not offered).
  const shownFilters = computed(() => {
    const out: Record<string, unknown> = { ...(list.filters.value as Record<string, unknown>) }
    for (const k of Object.keys(fixed)) delete out[k]
    return out
  })
  useListAddress(
    {
      listState: computed(() => ({ ...list.listState.value, filters: shownFilters.value })),
      restore: (s) => list.restore({ ...s, filters: { ...s.filters, ...fixed } }),
    },
    listOp,
    filterNames,
    defaults,
    options.inAddress,
  )
  function setFilters(values: Record<string, unknown>): void {
    list.setFilters({ ...values, ...fixed })
  }
  // What the CSV export sends: the list's filters, search and sort (every page).
  const exportQuery = computed(() => {
    const query: Record<string, string | number | boolean> = {
      sort: list.sort.value,
      ...options.extraQuery?.(),
    }
    for (const [k, v] of Object.entries(list.filters.value as Record<string, unknown>))
      if ((typeof v === 'string' && v) || typeof v === 'number' || typeof v === 'boolean')
        query[k] = v
    if (list.search.value.trim()) query.search = list.search.value.trim()
    return query
  })
  /** The list as a record opened from it remembers it (its page's rows and how to read more). */
  function trail(
    accountId: string,
    resourceKey: string,
    rows: readonly { id: string }[],
  ): ListTrail {
    const { page, perPage, sort, search } = list.listState.value
    return {
      accountId,
      resourceKey,
      op: listOp,
      query: {
        ...(list.filters.value as Record<string, unknown>),
        ...options.extraQuery?.(),
        sort,
        ...(search ? { search } : {}),
      },
      ...(options.path ? { path: options.path } : {}),
      page,
      perPage,
      total: list.total.value,
      ids: rows.map((r) => r.id),
    }
  }
  return { list, listOp, filterNames, shownFilters, setFilters, exportQuery, trail }
}
