import { ref, watch, type Ref } from 'vue'
import {
  useOperationForm,
  type OperationForm,
  type OperationFormOptions,
} from '@/data/useOperationForm'
import type { FormDialogProps } from '@/resources'
import { focusUnlessTyping } from '@/utils/focus'

/** Options of a resource form dialog, beyond its props. */
export interface ResourceFormDialogOptions extends Pick<OperationFormOptions, 'labels' | 'check'> {
  /** Values the form starts from, and is reset to on every opening; `initial` by default. */
  startValues?: () => Record<string, unknown>
  /** Where the caret goes once the dialog is open: the first match inside the form. */
  focusSelector?: string
}

/** What useResourceFormDialog returns (FormDialogShell takes it whole). */
export interface ResourceFormDialog {
  /** The dialog's props (its title and submit label for FormDialogShell). */
  props: FormDialogProps
  form: OperationForm
  root: Ref<HTMLElement | null>
  /** Binds the form's element (a function ref). */
  setRoot: (el: unknown) => void
  save: () => Promise<void>
  focusFirst: () => void
}

/**
 * The shared logic of a create or edit dialog over one write operation: the form (reset to its
 * starting values whenever the dialog opens), its element, `save` (closes the dialog and emits
 * `saved` once the service accepted) and `focusFirst` for the dialog's `opened`.
 */
export function useResourceFormDialog(
  props: FormDialogProps,
  open: Ref<boolean>,
  emit: (event: 'saved', data: unknown) => void,
  options: ResourceFormDialogOptions = {},
): ResourceFormDialog {
  const startValues = options.startValues ?? (() => props.initial ?? {})
  const root = ref<HTMLElement | null>(null)
  const form = useOperationForm(props.op, {
    path: () => props.path,
    initial: startValues,
    alsoChanges: props.resource?.alsoChanges,
    labels: options.labels,
    check: options.check,
    root,
  })

  watch(open, (isOpen) => {
    if (isOpen) form.reset(startValues())
  })

  async function save(): Promise<void> {
    const data = await form.submit()
    if (data === null) return
    open.value = false
    emit('saved', data)
  }

  function focusFirst(): void {
    focusUnlessTyping(
      root.value?.querySelector<HTMLElement>(
        options.focusSelector ?? '[data-field] input, [data-field] textarea',
      ),
    )
  }

  const setRoot = (el: unknown): void => {
    root.value = el instanceof HTMLElement ? el : null
  }

  return { props, form, root, setRoot, save, focusFirst }
}
