import { computed, ref, shallowRef } from 'vue'
import { useRouter } from 'vue-router'
import type { OperationId } from '@contract/catalog'
import type { ResourceDef, ToolbarActionDef } from '@/resources'
import type { useResourceActions } from './resourceActions'

/**
 * A resource table's toolbar actions and its one primary New button: what the release and the
 * user's permissions allow, why one is blocked, and what running one opens.
 */
export function useTableToolbar(
  resource: ResourceDef,
  actions: ReturnType<typeof useResourceActions>,
) {
  const router = useRouter()
  const toolbar = computed(() => (resource.toolbar ?? []).filter((a) => actions.allowed(a.op)))
  // A toolbar action that opens a screen of its own (the wizard) can be started offline: only the
  // screen's last step needs the service.
  const toolbarBlocked = (a: ToolbarActionDef) => (a.to ? null : actions.blocked(a.op))
  // A toolbar action with a workflow of its own (a CSV import) opens its dialog.
  const toolbarDialog = shallowRef<ToolbarActionDef | null>(null)
  const toolbarDialogOpen = ref(false)
  function runToolbar(a: ToolbarActionDef): void {
    if (a.to) void router.push(a.to)
    else if (a.dialog) {
      toolbarDialog.value = a
      toolbarDialogOpen.value = true
    } else void actions.toolbarAction(a)
  }
  const createOpen = ref(false)
  const createOp = computed<OperationId | undefined>(() =>
    actions.allowed(resource.ops.create) ? resource.ops.create : undefined,
  )
  // One primary New button: the guided way where there is one (it offers the generic form),
  // else the generic form.
  const createVia = computed(() =>
    actions.allowed(resource.createVia?.op) ? resource.createVia : undefined,
  )
  // A guided way to create (the wizard) opens offline too; the form's own write waits for the
  // service.
  const createBlocked = computed(() =>
    createVia.value || !createOp.value ? null : actions.blocked(createOp.value),
  )
  function create(): void {
    if (createVia.value) void router.push(createVia.value.to)
    else createOpen.value = true
  }
  return {
    toolbar,
    toolbarBlocked,
    toolbarDialog,
    toolbarDialogOpen,
    runToolbar,
    createOpen,
    createOp,
    createVia,
    createBlocked,
    create,
  }
}
