import { computed, h, type Ref } from 'vue'
import type { ResourceRow } from '@/composables/resourceActions'
import { labelOf } from '@/data/schemaFields'
import type { ColumnDef } from '@/resources'
import CellValue from '../CellValue.vue'
import { cellText, resourceCellNode } from '../cellNodes'
import type { TableColumn } from './columns'

/**
 * A resource table's columns for the light table — the registry's shown ones, then the page's
 * own (`extra`, drawn by its slots) — and each registry cell as plain elements in the table's
 * own render (no component per cell, cellNodes.ts; a progress is CellValue's bar).
 */
export function useResourceCells(
  columns: Readonly<Ref<readonly ColumnDef[]>>,
  extra: () => readonly TableColumn[] | undefined,
  pending: (ops: readonly string[], id: string) => boolean,
) {
  const byKey = computed(() => new Map(columns.value.map((c) => [c.key, c])))
  const extraKeys = computed(() => new Set((extra() ?? []).map((c) => c.key)))
  const tableColumns = computed<TableColumn[]>(() => [
    ...columns.value.map((c) => ({
      key: c.key,
      label: c.label ?? labelOf(c.key),
      sortable: !!c.sortable,
      width: c.width,
    })),
    ...(extra() ?? []),
  ])
  /** A row's name (its check box's label): its first column's value. */
  const rowName = (row: ResourceRow) => cellText(row.attributes[columns.value[0]?.key ?? 'id'])

  function cellOf(key: string, row: ResourceRow) {
    const c = byKey.value.get(key)
    if (!c) return null
    return (
      resourceCellNode(c, row.id, row.attributes, pending) ??
      h(CellValue, { value: row.attributes[c.key], kind: c.kind, labels: c.labels, tones: c.tones })
    )
  }
  return { tableColumns, extraKeys, rowName, cellOf }
}
