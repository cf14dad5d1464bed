import { useForm } from 'vee-validate'
import { computed, nextTick, ref, type Ref } from 'vue'
import { findOperation, type GroupId, type OperationId } from '@contract/catalog'
import type { AppError } from '@contract/errors'
import type { DynamicInput } from '@/bridge/bridge'
import { serverFieldErrors } from '@/utils/fieldErrors'
import { describeBody, labelOf, type FieldSpec } from './schemaFields'
import { toBody, zodTypedSchema } from './typedSchema'
import { useOperationCall } from './useOperationCall'

/** Options of a form bound to one write operation. */
export interface OperationFormOptions {
  /** Path parameters (the id of the resource being edited). */
  path?: () => DynamicInput['path'] | undefined
  /** Values the form starts from (an edited resource's attributes). */
  initial?: () => Record<string, unknown>
  /** Other groups whose reads this write changes. */
  alsoChanges?: readonly GroupId[]
  /** The form's element: after a refused submit the caret goes to the first field in error. */
  root?: Ref<HTMLElement | null | undefined>
  /** How messages name fields ("Current password is incorrect"); labelOf(wire name) otherwise. */
  labels?: Record<string, string>
  /**
   * Checks no schema covers, run once the schema passed (e.g. "passwords differ"): a message per
   * field in error, {} when all is well. `values` include fields the body does not send.
   */
  check?: (values: Record<string, unknown>) => Partial<Record<string, string>>
}

/**
 * A form for one catalog write: its fields come from the operation's body schema, values are
 * checked by that schema before anything is sent, the service's 422 field errors land under
 * their fields (the rest in one alert), `saving` tracks the call, the caret goes back after a
 * refused submit, and the reads the write changes are refreshed.
 */
export function useOperationForm(op: OperationId, options: OperationFormOptions = {}) {
  const def = findOperation(op)
  if (!def) throw new Error(`unknown operation ${op}`)
  const fields: FieldSpec[] = describeBody(def.body)
  const initial = () => ({ ...blank(fields), ...(options.initial?.() ?? {}) })
  const form = useForm<Record<string, unknown>>({
    validationSchema: def.body ? zodTypedSchema(def.body, fields, initial) : undefined,
    initialValues: initial(),
  })
  const { runDynamic, running } = useOperationCall(options.alsoChanges)
  const alert = ref<string | null>(null)
  // Errors show once the user tried to submit: an untouched new form is not a wall of red.
  const attempted = ref(false)
  // Messages of the `check` option (its fields may be outside the body, so outside vee-validate).
  const checkErrors = ref<Record<string, string>>({})
  const errors = computed<Partial<Record<string, string>>>(() => {
    if (!attempted.value) return {}
    const out: Partial<Record<string, string>> = {}
    for (const [name, message] of Object.entries({ ...form.errors.value, ...checkErrors.value }))
      if (message) out[name] = /^[a-z]/.test(message) ? `${label(name)} ${message}` : message
    return out
  })
  const saving = computed(() => running.value > 0)
  const names = new Set(fields.map((f) => f.name))
  const label = (name: string) => options.labels?.[name] ?? labelOf(name)

  /** Starts again from `values` (or the initial values), with no errors shown. */
  function reset(values?: Record<string, unknown>): void {
    alert.value = null
    attempted.value = false
    checkErrors.value = {}
    form.resetForm({ values: { ...blank(fields), ...(values ?? options.initial?.() ?? {}) } })
  }

  /** Shows a refused call: field errors under their fields, everything else in the alert. */
  function showError(error: AppError): void {
    const byField = serverFieldErrors(error.fieldErrors)
    const placed: Record<string, string> = {}
    const rest: string[] = []
    for (const [key, message] of Object.entries(byField)) {
      if (names.has(key)) placed[key] = message
      else rest.push(key === '_' || key === 'body' ? message : `${label(key)} ${message}`)
    }
    form.setErrors(placed)
    alert.value =
      rest.length || !Object.keys(placed).length ? [error.message, ...rest].join(' ') : null
  }

  /**
   * Validates, sends, and resolves to the service's answer (checked by main against the
   * operation's response schema), or null when refused (errors are shown).
   */
  async function submit(): Promise<unknown> {
    alert.value = null
    attempted.value = true
    const checked = await form.validate()
    const found = checked.valid ? (options.check?.(form.values) ?? {}) : {}
    checkErrors.value = Object.fromEntries(
      Object.entries(found).filter((e): e is [string, string] => !!e[1]),
    )
    if (!checked.valid || Object.keys(checkErrors.value).length) {
      await giveCaretBack()
      return null
    }
    const body = def?.body ? toBody(form.values, fields, options.initial?.() ?? {}) : undefined
    const path = options.path?.()
    const result = await runDynamic(op, { ...(path ? { path } : {}), ...(body ? { body } : {}) })
    if (result.ok) return result.data.data
    showError(result.error)
    await giveCaretBack()
    return null
  }

  async function giveCaretBack(): Promise<void> {
    await nextTick()
    const root = options.root?.value
    if (!root) return
    const order = [...fields.map((f) => f.name), ...Object.keys(errors.value)]
    const wrong = order.find((name) => errors.value[name])
    const selector = wrong ? `[data-field="${wrong}"]` : '[data-field]'
    const holder = root.querySelector(selector)
    const control =
      holder?.querySelector<HTMLElement>('input, textarea') ??
      holder?.querySelector<HTMLElement>('[tabindex]')
    control?.focus()
  }

  return {
    fields,
    values: form.values,
    errors,
    setValue: (name: string, value: unknown) => form.setFieldValue(name, value, false),
    alert,
    saving,
    submit,
    reset,
    showError,
  }
}

/** Empty starting values: '' for text, false for required booleans, [] for lists. */
function blank(fields: readonly FieldSpec[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    if (f.kind === 'boolean') out[f.name] = f.required ? false : undefined
    else if (f.kind === 'enum-list' || f.kind === 'string-list') out[f.name] = []
    else if (f.kind === 'number') out[f.name] = undefined
    else if (f.kind !== 'unsupported') out[f.name] = ''
  }
  return out
}

/** What useOperationForm returns. */
export type OperationForm = ReturnType<typeof useOperationForm>
