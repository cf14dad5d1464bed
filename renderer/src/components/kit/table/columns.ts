import type { SortState } from '@/data/useOperationList'

// The light table's columns, sort and page check box, as plain functions (LightTable.vue draws
// them). Widths are CSS (table-layout: fixed): nothing is measured in the page.

/** One column of a light table; its cells are the table's `cell` slot. */
export interface TableColumn {
  key: string
  /** The header's text (also its accessible name). */
  label: string
  /** Sorted by the service on this key (a header click). */
  sortable?: boolean
  /** A fixed width in px; else the column takes its share of what is left (at least 120 px). */
  width?: number
  /** The header's tooltip. */
  title?: string
}

/** What a header's `aria-sort` says: only sortable columns say anything. */
export function ariaSortOf(
  column: TableColumn,
  sort: SortState,
): 'ascending' | 'descending' | 'none' | undefined {
  if (!column.sortable) return undefined
  return sort.prop === column.key && sort.order ? sort.order : 'none'
}

/** The sort after a click on a header: ascending, then descending, then the list's default. */
export function nextSort(column: TableColumn, sort: SortState): SortState {
  if (sort.prop !== column.key || !sort.order) return { prop: column.key, order: 'ascending' }
  if (sort.order === 'ascending') return { prop: column.key, order: 'descending' }
  return { prop: null, order: null }
}

/** The page's check box: every row on screen chosen, some, or none. */
export function pageCheck(
  ids: readonly string[],
  chosen: (id: string) => boolean,
): 'all' | 'some' | 'none' {
  let n = 0
  for (const id of ids) if (chosen(id)) n++
  if (!n) return 'none'
  return n === ids.length ? 'all' : 'some'
}
