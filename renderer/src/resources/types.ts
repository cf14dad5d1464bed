import type { AsyncComponentLoader } from 'vue'
import type { GroupId, OperationId } from '@contract/catalog'
import type { CsvExportOp } from '@contract/csv'
import type { DynamicInput } from '@/data/useOperationCall'
import type { FiltersOf, ListOperationId, RowOf } from '@/data/useOperationList'
import type { ListOf, ResourceKey } from './keys'

export type { ListOf, ResourceKey } from './keys'

/** How a column shows its value. */
export type ColumnKind =
  | 'text'
  | 'datetime'
  | 'severity'
  | 'boolean'
  | 'tags'
  | 'number'
  | 'status'
  | 'progress'
  | 'severity-counts'

/** The named members of T (a loose object's index signature left out). */
type Known<T> = {
  [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K]
}

/**
 * True for `ListOperationId` itself: the type the generic screens read every entry through,
 * where attributes and filters are any record and any name. An entry is checked by its own list.
 */
type AnyList<L extends ListOperationId> = [ListOperationId] extends [L] ? true : false

/**
 * The attributes of a list operation's rows by their named members, as `when` and `notKnown`
 * read them (`a.staus` does not compile).
 */
export type RowAttributes<L extends ListOperationId> =
  AnyList<L> extends true
    ? Record<string, unknown>
    : Known<NonNullable<RowOf<L> extends { attributes: infer A } ? A : never>>

/** Attribute names of a list operation's rows. */
export type AttrOf<L extends ListOperationId> = Extract<keyof RowAttributes<L>, string>

/** Names of a list operation's query filters (besides paging, sort and search). */
export type FilterOf<L extends ListOperationId> =
  AnyList<L> extends true ? string : Extract<keyof FiltersOf<L>, string>

/** One column of a resource table (`K`: its list's attribute names, `A`: its rows' attributes). */
export interface ColumnDef<K extends string = string, A = Record<string, unknown>> {
  key: K
  label?: string
  kind?: ColumnKind
  sortable?: boolean
  width?: number
  /**
   * The value is the id (or ids) of a record of another resource (registry key): shown as that
   * record's name, linked to its detail.
   */
  link?: ResourceKey
  /**
   * With `link`: the value is already the linked record's name (a finding's `host_ip`) and its id
   * is this attribute (`host_id`), which detail pages then do not show a second time.
   */
  linkId?: K
  /** The value is the id of a record whose type (`scan`, `user`) is this attribute (audit). */
  linkType?: K
  /** Status words written for people (`non_compliant` → "Non-Compliant"); the rest humanized. */
  labels?: Readonly<Record<string, string>>
  /** Status words shown as a warning (amber) or a danger (red) tag; the rest neutral. */
  tones?: Readonly<Record<string, 'warning' | 'danger' | 'success'>>
  /**
   * Why a row's value is not known yet (a scan's findings while its run has not completed): the
   * short words are shown instead of the value, the sentence on hover. Null: the value stands.
   */
  notKnown?: (attributes: A) => { short: string; long: string } | null
  /**
   * Queued writes that set this column to `value`: while one waits in the outbox for the row (or
   * for every row) and the row's value is not that yet, the cell says `text` ("Read (pending)").
   */
  pending?: { ops: readonly OperationId[]; value: unknown; text: string }
}

/** A write on one row (path `{id}`): a call, or a form when the operation has a body. */
export interface RowActionDef<A = Record<string, unknown>> {
  op: OperationId
  label: string
  /** Ask first: 'danger' for destructive, 'costly' for expensive or irreversible work. */
  confirm?: 'danger' | 'costly'
  /** Shown only for rows where this holds (e.g. Activate on inactive rows). */
  when?: (attributes: A) => boolean
  /**
   * A workflow of its own (after the confirmation, if any): this dialog (props `resource`, `row`,
   * v-model) runs the operation and shows its progress or the service's answer (verify, sync).
   */
  dialog?: AsyncComponentLoader
}

/** A write on the whole list (no `{id}`), e.g. "Mark all read". */
export interface ToolbarActionDef {
  op: OperationId
  label: string
  confirm?: 'danger' | 'costly'
  /** A screen of its own that runs `op` (the scan wizard): the button opens this route. */
  to?: string
  /** A workflow of its own that runs `op` (a CSV import with its preview): props `resource`, v-model. */
  dialog?: AsyncComponentLoader
}

/** A field of a form that needs something else than its schema says. */
export interface FieldOverride {
  label?: string
  hidden?: boolean
  /** The field holds the id (or ids) of another resource: a searchable picker over its list. */
  picker?: ResourceKey
  help?: string
}

/**
 * A list shown on a detail page: `resource`'s rows (its columns and actions), either from a list
 * operation taking the detail's id as `{id}` (`op`: a scan's hosts) or from the resource's own
 * list filtered by the detail's id (`filter`, a name of that list's query: the targets of an
 * organization).
 */
export type RelatedDef<K extends ResourceKey = ResourceKey> = K extends ResourceKey
  ? {
      label: string
      resource: K
      op?: ListOperationId
      filter?: FilterOf<ListOf<K>>
      /** Rows open a read of one related row: `op` with the detail's `{id}` and the row's id as `param`. */
      show?: { op: OperationId; param: string }
      /**
       * The tab is this component instead of the generic table, where the list needs more than its
       * rows (a scan's reports: generate, download, why there is none): props `resource` (the
       * related one), `id` (the detail's) and `filter`.
       */
      component?: AsyncComponentLoader
    }
  : never

/** Rows of a resource that change by themselves (a running scan): composables/liveRows.ts. */
export interface LiveRowsDef<A = Record<string, unknown>> {
  /** Whether a row changes by itself now (its attributes). */
  when: (attributes: A) => boolean
  /** The groups whose reads change when a live row settles (refreshed for the account). */
  settles?: readonly GroupId[]
}

/** One resource of a group: everything the generic list, detail and form need. */
export interface ResourceDef<L extends ListOperationId = ListOperationId> {
  key: ResourceKey
  group: GroupId
  /** Label of the create button (default `New <noun>`). */
  createLabel?: string
  /**
   * A guided way to create that the create button opens (a route) where the release and the
   * user's permissions allow `op`; the generic form of `ops.create` is then offered from inside
   * it, so each list has one primary New button.
   */
  createVia?: { op: OperationId; to: string }
  noun: string
  plural: string
  /** The attribute that names a row (links, pickers, confirmations). */
  titleField: AttrOf<L>
  ops: {
    list: L
    show?: OperationId
    create?: OperationId
    update?: OperationId
    delete?: OperationId
    bulkDelete?: OperationId
  }
  columns: ColumnDef<AttrOf<L>, RowAttributes<L>>[]
  /** Query filters offered above the table (names of the list operation's query). */
  filters?: FilterOf<L>[]
  rowActions?: RowActionDef<RowAttributes<L>>[]
  /**
   * What a row's details (its drawer) say beyond its attributes, where the service's interface
   * lacks what a user looks for there (a failed delivery: no redelivery); null for nothing.
   */
  rowNote?: (attributes: Record<string, unknown>) => string | null
  /**
   * Rows that change by themselves: while the page of a list holds one, the list is asked again
   * with backoff, and when one settles the reads of `settles` are refreshed.
   */
  live?: LiveRowsDef<RowAttributes<L>>
  toolbar?: ToolbarActionDef[]
  /** The list's CSV export: an "Export CSV…" button saving it with the list's filters and sort. */
  exportCsv?: CsvExportOp
  fields?: Record<string, FieldOverride>
  related?: RelatedDef[]
  /**
   * Further reads of one row (GET with the row's `{id}`), shown as panels on its detail page: as
   * attributes, or by `component` (props `resource`, `id`, `op`) where the read needs its own
   * editor (a port list's ranges).
   */
  panels?: { label: string; op: OperationId; component?: AsyncComponentLoader }[]
  /** Other list operations over the same rows, offered as tabs ("Activated"). */
  views?: { label: string; op: ListOperationId }[]
  /**
   * Permission area (`<area>.read` / `<area>.write`); the group by default. null: the user's
   * own records (notifications), whose actions need no area permission.
   */
  permission?: string | null
  defaultSort?: string
  /** Other groups whose reads this resource's writes change. */
  alsoChanges?: GroupId[]
  /** Rows only shown inside another resource's detail (their list needs its `{id}`). */
  nested?: boolean
  /**
   * The create and edit dialog, where the body needs more than its schema says (a credential's
   * write-only secret): the props and v-model of OperationFormDialog.
   */
  form?: AsyncComponentLoader
  /**
   * Views of their own that replace a generic screen (they use the same composables and this
   * entry): `list`, the group's page instead of the generic list of its resources (one entry of a
   * group at most); `detail`, a record's page instead of ResourceDetailView, with its props
   * (`resourceKey`, `id`). screens.ts and the routes are derived from these.
   */
  custom?: {
    list?: AsyncComponentLoader
    detail?: AsyncComponentLoader
    /**
     * The `list` view's main table is this entry's ResourceTable read as a generic page's is
     * (filters, search, sort and page from the address), so its first read can start as the
     * route is entered (data/firstReads.ts); not while the address has one of `unless`: the
     * view's own filters, which it sends as more of the query once made.
     */
    listReadFromAddress?: { unless: readonly string[] }
  }
  /** Test id of the table (kept stable for end-to-end tests). */
  testId?: string
}

/** The props of a create or edit dialog (OperationFormDialog, or a resource's own `form`). */
export interface FormDialogProps {
  op: OperationId
  title: string
  submitLabel?: string
  resource?: ResourceDef
  path?: DynamicInput['path']
  initial?: Record<string, unknown>
}

/**
 * Declares a resource: its list operation is the one `RESOURCE_LISTS` gives its key; columns,
 * filters and `when` are checked against that list's attributes and query, links, pickers and
 * related lists against the other resources' keys and lists.
 */
export function defineResource<K extends ResourceKey>(
  def: ResourceDef<ListOf<K>> & { key: K },
): ResourceDef {
  return def as unknown as ResourceDef
}
