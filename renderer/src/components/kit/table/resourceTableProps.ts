import type { OperationId } from '@contract/catalog'
import type { ListOperationId } from '@/data/useOperationList'
import type { ResourceRow } from '@/composables/resourceActions'
import type { RowSelection } from '@/composables/rowSelection'
import type { ResourceDef } from '@/resources'
import type { TableColumn } from './columns'

/** What a page tells ResourceTable (the generic list of a registry resource). */
export interface ResourceTableProps {
  resource: ResourceDef
  /** Filters fixed by the page (a detail's related list): not offered, always sent. */
  fixed?: Record<string, string>
  /**
   * The list's filters, search, sort and page are not kept in the address (they are for a page's
   * main list, not a compact or related one: another tab's list on screen says so).
   */
  notInAddress?: boolean
  /** Another list operation over the same rows (a "view" tab), or one taking `path`. */
  op?: ListOperationId
  path?: Record<string, string>
  compact?: boolean
  /** Rows open this read in a drawer (`path` plus the row's id as `param`) instead of a page. */
  show?: { op: OperationId; param: string }
  /** The page opens rows itself (`open` is emitted) instead of going to the detail route. */
  openHere?: boolean
  /** Width of the actions column (pages adding row actions need more). */
  actionsWidth?: number
  /** The page offers its own New button (its form leads to the generic one): none here. */
  noCreate?: boolean
  /** Rows can be chosen (check boxes, x) though the list offers no bulk delete (a bulk action). */
  selectable?: boolean
  /** The page's selection model, for its own bulk actions; else the table keeps one. */
  selection?: RowSelection
  /** More of the query from the page's own filters (sent, exported; kept in the address by it). */
  extraQuery?: Record<string, string>
  /** More columns, after the registry's, drawn by the page (slots `cell-<key>`, `header-<key>`). */
  extraColumns?: readonly TableColumn[]
  /**
   * Rows of the service's answer that the page's own rule leaves out (a due filter's finding that
   * an exception paused), and how many the whole list leaves out (null while not known): the
   * total said is the service's less those; the pages stay the service's.
   */
  leaveOut?: { test: (row: ResourceRow) => boolean; count: number | null }
}
