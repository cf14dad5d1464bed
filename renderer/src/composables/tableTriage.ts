import { nextTick, watch, type Ref } from 'vue'
import type { ResourceRow } from './resourceActions'
import { useListKeys } from './listKeys'
import { useRowSelection, type RowSelection } from './rowSelection'

/** What a resource table hands its triage. */
export interface TableTriageOptions {
  rows: () => readonly ResourceRow[]
  root: Ref<HTMLElement | undefined>
  /** The keys work now (the page's main list). */
  enabled: () => boolean
  /** The list offers a selection (its check boxes). */
  selectable: () => boolean
  /** The page's own selection model (a bulk toolbar outside the table reads it), if any. */
  selection?: RowSelection
  open: (id: string) => void
}

/**
 * A resource table's selection and keyboard: one selection model (useRowSelection, the page's
 * or the table's own) that the check boxes, x/Shift+x and bulk actions share, kept to the rows
 * on screen (the check boxes draw it as it is); and the row cursor of useListKeys, shown as the
 * table's current row.
 */
export function useTableTriage(o: TableTriageOptions) {
  const ids = () => o.rows().map((r) => r.id)
  const selection = o.selection ?? useRowSelection(ids)
  const { cursor } = useListKeys({
    ids,
    enabled: o.enabled,
    open: o.open,
    selection: () => (o.selectable() ? selection : null),
    focusSearch: () =>
      o.root.value?.querySelector<HTMLInputElement>('.resource-table__search input')?.focus(),
  })

  watch(o.rows, () => selection.retain(ids()))
  watch(cursor, async (id) => {
    if (id === null) return
    await nextTick()
    o.root.value
      ?.querySelector('tbody .light-table__row.is-current')
      ?.scrollIntoView?.({ block: 'nearest' })
  })

  /** A row's check box clicked: that row toggled (it becomes the anchor of Shift+x). */
  function onSelect(id: string): void {
    selection.toggle(id)
  }
  /** The page's check box: all rows on screen, or none. */
  function onSelectAll(all: boolean): void {
    if (all) selection.selectAll(ids())
    else selection.clear()
  }
  /** A row clicked becomes the cursor's. */
  function onRowClick(id: string): void {
    if (id !== cursor.value) cursor.value = id
  }
  return { selection, cursor, onSelect, onSelectAll, onRowClick }
}
