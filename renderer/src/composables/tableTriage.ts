import { nextTick, watch, type Ref } from 'vue'
import type { ResourceRow } from './resourceActions'
import { useListKeys } from './listKeys'
import { useRowSelection, type RowSelection } from './rowSelection'

/** The parts of Element Plus' table the triage drives. */
interface TableApi {
  toggleRowSelection(row: ResourceRow, selected?: boolean, ignoreSelectable?: boolean): void
  setCurrentRow(row?: ResourceRow): void
  /** The rows whose box is checked (the table's own rows: `id` is a ResourceRow's). */
  getSelectionRows(): { id?: unknown }[]
}

/** What a resource table hands its triage. */
export interface TableTriageOptions {
  rows: () => readonly ResourceRow[]
  table: Ref<TableApi | undefined>
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
 * on screen; and the row cursor of useListKeys, shown as the table's current row.
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
  const rowOf = (id: string | null) => o.rows().find((r) => r.id === id)

  watch(o.rows, () => selection.retain(ids()))
  // The check boxes show the model (a key or a bulk action may have changed it).
  watch(
    [selection.selected, o.rows],
    async () => {
      await nextTick()
      const table = o.table.value
      if (!table || !o.selectable()) return
      // Only the rows whose box differs from the model (each toggle looks the row up in the
      // table's data: asking every row on each page change costs rows² steps).
      const checked = new Set(table.getSelectionRows().map((r) => r.id))
      for (const row of o.rows())
        if (checked.has(row.id) !== selection.has(row.id))
          table.toggleRowSelection(row, selection.has(row.id), false)
    },
    { flush: 'post' },
  )
  watch(cursor, async (id) => {
    await nextTick()
    o.table.value?.setCurrentRow(rowOf(id))
    o.root.value
      ?.querySelector('.el-table__body .current-row')
      ?.scrollIntoView?.({ block: 'nearest' })
  })

  /** A check box clicked: that row toggled (it becomes the anchor of Shift+x). */
  function onSelect(_: ResourceRow[], row: ResourceRow): void {
    selection.toggle(row.id)
  }
  /** The header's check box: all rows on screen, or none. */
  function onSelectAll(chosen: ResourceRow[]): void {
    if (chosen.length) selection.selectAll(chosen.map((r) => r.id))
    else selection.clear()
  }
  /** A row clicked becomes the cursor's. */
  function onCurrentChange(row: ResourceRow | null): void {
    if (row && row.id !== cursor.value) cursor.value = row.id
  }
  return { selection, cursor, onSelect, onSelectAll, onCurrentChange }
}
