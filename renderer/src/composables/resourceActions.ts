import { ElMessage } from 'element-plus'
import { ref, shallowRef } from 'vue'
import { findOperation, type OperationId } from '@contract/catalog'
import type { DynamicInput } from '@/data/useOperationCall'
import { describeBody } from '@/data/schemaFields'
import { isQueued, useOperationCall } from '@/data/useOperationCall'
import type { ResourceDef, RowActionDef, ToolbarActionDef } from '@/resources'
import { countOf, useConfirmStore } from '@/stores/confirm'
import { useReleaseGuard } from '@/stores/scope'
import { useOfflineGate } from '@/data/offlineGate'
import { usePendingWrites } from './pendingWrites'
import { usePermissions } from './permissions'

/** A row as lists and details hand it around. */
export interface ResourceRow {
  id: string
  attributes: Record<string, unknown>
  /** Set when main read the row tolerantly: fields shown as text, or the row as sent. */
  mark?: { asText?: string[]; partial?: true }
}

/** The form dialog an action opened: which operation, for which row. */
export interface OpenForm {
  op: OperationId
  title: string
  path?: DynamicInput['path']
  initial?: Record<string, unknown>
}

/**
 * The writes one resource offers, shared by its table and its detail page: what the release and
 * the user's permissions allow, which of them must wait for the service (offline: shown disabled
 * with the reason, never asked first and then refused), confirmations naming what is touched, and
 * the form dialog of actions that need input.
 */
export function useResourceActions(resource: ResourceDef) {
  const guard = useReleaseGuard()
  const permissions = usePermissions()
  const gate = useOfflineGate()
  const writes = usePendingWrites()
  const confirm = useConfirmStore()
  const { runDynamic: run, running } = useOperationCall(resource.alsoChanges)
  const form = shallowRef<OpenForm | null>(null)
  const formOpen = ref(false)
  const dialog = shallowRef<{ action: RowActionDef; row: ResourceRow } | null>(null)
  const dialogOpen = ref(false)
  const area = resource.permission === undefined ? resource.group : resource.permission

  /** True when the release has the operation and, for writes, the user may write here. */
  function allowed(op: OperationId | undefined): op is OperationId {
    if (!op || !guard.has(op)) return false
    return findOperation(op)?.method === 'GET' || area === null || permissions.canWrite(area)
  }

  /** Why `op` cannot be sent now (online-only while the service is out of reach), else null. */
  const blocked = (op: OperationId | undefined): string | null => gate.blocked(op)

  /** Says why an action cannot run now; true when it was held back. */
  function heldBack(op: OperationId | undefined): boolean {
    const reason = blocked(op)
    if (reason) ElMessage.warning(reason)
    return reason !== null
  }

  /**
   * The row actions offered for a row with these attributes (release, permission, row state); an
   * action already waiting in the outbox for row `id` is not offered twice.
   */
  function rowActionsFor(attributes: Record<string, unknown> | null, id?: string): RowActionDef[] {
    return (resource.rowActions ?? []).filter(
      (a) =>
        allowed(a.op) &&
        (!a.when || !attributes || a.when(attributes)) &&
        !(id !== undefined && writes.pending([a.op], id)),
    )
  }

  const titleOf = (row: ResourceRow) =>
    String(row.attributes[resource.titleField] ?? row.id) || row.id

  function openForm(next: OpenForm): void {
    form.value = next
    formOpen.value = true
  }

  /** Opens or closes the action's form dialog (its v-model). */
  function setFormOpen(open: boolean): void {
    formOpen.value = open
  }

  async function ask(kind: 'danger' | 'costly', label: string, what: string): Promise<boolean> {
    return confirm.ask({
      title: label,
      message: `${label} ${what}?`,
      detail: kind === 'danger' ? 'This cannot be undone.' : undefined,
      confirmLabel: label,
      danger: kind === 'danger',
    })
  }

  /** Opens or closes a row action's own dialog (its v-model). */
  function setDialogOpen(open: boolean): void {
    dialogOpen.value = open
  }

  /**
   * Runs a row action: its own dialog (asked first if so declared), a form when the operation
   * takes a body, else a call (asked first if so declared).
   */
  async function rowAction(action: RowActionDef, row: ResourceRow): Promise<void> {
    const label = action.label.replace(/…$/, '')
    if (heldBack(action.op)) return
    if (action.dialog) {
      if (action.confirm && !(await ask(action.confirm, label, `“${titleOf(row)}”`))) return
      dialog.value = { action, row }
      dialogOpen.value = true
      return
    }
    if (findOperation(action.op)?.body) {
      openForm({ op: action.op, title: `${label} — ${titleOf(row)}`, path: { id: row.id } })
      return
    }
    if (action.confirm && !(await ask(action.confirm, label, `“${titleOf(row)}”`))) return
    const result = await run(action.op, { path: { id: row.id } })
    if (!result.ok) ElMessage.error(result.error.message)
    else if (!isQueued(result.data)) ElMessage.success(`${label}: done for “${titleOf(row)}”.`)
  }

  /** Runs an action on the whole list (a form when it takes a body). */
  async function toolbarAction(action: ToolbarActionDef): Promise<void> {
    const label = action.label.replace(/…$/, '')
    if (heldBack(action.op)) return
    if (findOperation(action.op)?.body) {
      openForm({ op: action.op, title: label })
      return
    }
    if (action.confirm && !(await ask(action.confirm, label, `all ${resource.plural}`))) return
    const result = await run(action.op)
    if (!result.ok) ElMessage.error(result.error.message)
    else if (!isQueued(result.data)) ElMessage.success(`${label}: done.`)
  }

  /** Deletes rows after asking (one by name, several by count); resolves true when deleted. */
  async function remove(rows: ResourceRow[]): Promise<boolean> {
    if (!rows.length) return false
    const { delete: one, bulkDelete: many } = resource.ops
    if (heldBack(rows.length > 1 && many && allowed(many) ? many : one)) return false
    const what =
      rows.length === 1
        ? `“${titleOf(rows[0])}”`
        : countOf(rows.length, resource.noun, resource.plural)
    const ok = await confirm.ask({
      title: 'Delete',
      message: `Delete ${what}?`,
      detail: 'This cannot be undone.',
      confirmLabel: 'Delete',
      danger: true,
      testId: 'delete-confirm',
    })
    if (!ok) return false
    const result =
      rows.length > 1 && many && allowed(many)
        ? await run(many, { body: { ids: rows.map((r) => r.id) } })
        : one
          ? await removeEach(one, rows)
          : null
    if (!result) return false
    if (!result.ok) ElMessage.error(result.error.message)
    else if (!isQueued(result.data)) ElMessage.success(`Deleted ${what}.`)
    return result.ok
  }

  async function removeEach(op: OperationId, rows: ResourceRow[]) {
    let last = null
    for (const row of rows) {
      last = await run(op, { path: { id: row.id } })
      if (!last.ok) return last
    }
    return last
  }

  return {
    allowed,
    blocked,
    /** The user's permissions are known (or could not be read): the offered writes are final. */
    permissionsSettled: permissions.settled,
    running,
    form,
    formOpen,
    openForm,
    setFormOpen,
    dialog,
    dialogOpen,
    setDialogOpen,
    rowActionsFor,
    rowAction,
    toolbarAction,
    remove,
    titleOf,
  }
}

/** What an edit form of `resource` starts from: the attributes its update body accepts. */
export function editInitialOf(
  resource: ResourceDef,
  attributes: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const names = new Set(
    describeBody(findOperation(resource.ops.update ?? '')?.body ?? null).map((f) => f.name),
  )
  return Object.fromEntries(Object.entries(attributes ?? {}).filter(([k]) => names.has(k)))
}
