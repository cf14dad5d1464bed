import { useForm } from 'vee-validate'
import { computed, nextTick, reactive, ref, type Ref } from 'vue'
import type { z } from 'zod'
import type { AppError, ErrorCode, Result } from '@contract/errors'
import { serverFieldErrors } from '@/utils/fieldErrors'
import { labelOf } from './schemaFields'
import { zodTypedSchema } from './typedSchema'

/** Failures of the connection, not of the values: the same request may simply be sent again. */
const RETRYABLE: readonly ErrorCode[] = ['OFFLINE', 'TIMEOUT']

/** Options of a form checked by one schema of the contract (a catalog body or a channel input). */
export interface SchemaFormOptions<Out> {
  /** The schema main checks the input with; the form checks the same one before sending. */
  schema?: z.ZodType
  /** Values the form starts from; its keys are the form's fields. */
  initial: () => Record<string, unknown>
  /** Form values → what the schema checks and `send` gets (identity when left out). */
  toInput?: (values: Record<string, unknown>) => unknown
  /** Sends the checked input: a store action or a catalog call. */
  send: (input: unknown) => Promise<Result<Out>>
  /** Field names in the order they are shown (where the caret goes back to); initial's keys otherwise. */
  order?: () => readonly string[]
  /** The form's element: after a refused submit the caret goes to the first field in error. */
  root?: Ref<HTMLElement | null | undefined>
  /** How messages name fields ("Current password is incorrect"); labelOf(wire name) otherwise. */
  labels?: Record<string, string>
  /** Words a field's message itself (instead of "<label> <message>"). */
  phrase?: (name: string, message: string) => string
  /**
   * Checks no schema covers, run once the schema passed (e.g. "passwords differ"): a message per
   * field in error, {} when all is well. `values` include fields the schema does not see.
   */
  check?: (values: Record<string, unknown>) => Partial<Record<string, string>>
}

/**
 * The one form engine of the renderer (vee-validate over the contract's zod schemas): values are
 * checked by the schema main uses before anything is sent, errors show for a field once it was
 * left (blur) or a submit was tried, the service's field errors land under their fields (the rest
 * in one alert), `saving` tracks the call, and the caret goes back after a refused submit.
 */
export function useSchemaForm<Out>(options: SchemaFormOptions<Out>) {
  const toInput = options.toInput ?? ((values: Record<string, unknown>) => values)
  const form = useForm<Record<string, unknown>>({
    validationSchema: options.schema
      ? zodTypedSchema(options.schema, (values) => toInput(values))
      : undefined,
    initialValues: options.initial(),
  })
  // vee-validate files a schema's error under the longest field it knows whose name the error's
  // name starts with ('start_at' under a known 'start'), and it knows a field once it was set.
  // Every field is known from the start, so each error lands on its own field.
  for (const [name, value] of Object.entries(form.values)) form.setFieldValue(name, value, false)
  const alert = ref<string | null>(null)
  // The last refusal was the connection's (offline, timed out): the alert offers to send again.
  const retryable = ref(false)
  // Errors show once the user tried to submit or left the field: an untouched form is not red.
  const attempted = ref(false)
  const touched = reactive(new Set<string>())
  // Messages of the `check` option and the service's (until the next check).
  const extraErrors = ref<Record<string, string>>({})
  // Messages of checks made outside the form (setError), until cleared.
  const pinned = ref<Record<string, string>>({})
  const running = ref(0)
  const label = (name: string) => options.labels?.[name] ?? labelOf(name)
  const phrase =
    options.phrase ??
    ((name: string, message: string) =>
      /^[a-z]/.test(message) ? `${label(name)} ${message}` : message)
  const order = () => options.order?.() ?? Object.keys(options.initial())

  const errors = computed<Partial<Record<string, string>>>(() => {
    const out: Partial<Record<string, string>> = {}
    const all = { ...form.errors.value, ...extraErrors.value, ...pinned.value }
    for (const [name, message] of Object.entries(all))
      if (message && (attempted.value || touched.has(name))) out[name] = phrase(name, message)
    return out
  })
  const saving = computed(() => running.value > 0)

  /** Starts again from `values` (or the initial values), with no errors shown. */
  function reset(values?: Record<string, unknown>): void {
    alert.value = null
    retryable.value = false
    attempted.value = false
    touched.clear()
    extraErrors.value = {}
    pinned.value = {}
    form.resetForm({ values: { ...options.initial(), ...(values ?? {}) } })
  }

  /** Checks one field now (the user left it) and shows its error from then on. */
  async function touch(name: string): Promise<boolean> {
    touched.add(name)
    const { [name]: _dropped, ...rest } = extraErrors.value
    extraErrors.value = rest
    // The whole schema runs (a field's rule may read another: the URL and the http opt-in);
    // only this field's verdict is shown.
    const checked = await form.validate({ mode: 'silent' })
    form.setFieldError(name, checked.errors[name])
    return !checked.errors[name]
  }

  /**
   * Shows an error under one field until cleared with null (a check made outside the schema: a
   * CA file that does not parse); the form does not submit while it stands.
   */
  function setError(name: string, message: string | null): void {
    const { [name]: _dropped, ...rest } = pinned.value
    pinned.value = message ? { ...rest, [name]: message } : rest
    if (message) touched.add(name)
  }

  /** Forgets what was said about `names` (fields that left the form: another sign-in method). */
  function clearErrors(names: readonly string[]): void {
    for (const name of names) {
      form.setFieldError(name, undefined)
      touched.delete(name)
    }
    extraErrors.value = Object.fromEntries(
      Object.entries(extraErrors.value).filter(([name]) => !names.includes(name)),
    )
  }

  /** Shows a refused call: field errors under their fields, everything else in the alert. */
  function showError(error: AppError): void {
    const names = new Set([...order(), ...Object.keys(options.initial())])
    const byField = serverFieldErrors(error.fieldErrors)
    const placed: Record<string, string> = {}
    const rest: string[] = []
    for (const [key, message] of Object.entries(byField)) {
      if (names.has(key)) placed[key] = message
      else rest.push(key === '_' || key === 'body' ? message : `${label(key)} ${message}`)
    }
    attempted.value = true
    retryable.value = RETRYABLE.includes(error.code)
    extraErrors.value = { ...extraErrors.value, ...placed }
    alert.value =
      rest.length || !Object.keys(placed).length ? [error.message, ...rest].join(' ') : null
  }

  /** Checks the values (schema, then `check`); shows what is wrong. */
  async function validate(): Promise<boolean> {
    attempted.value = true
    const checked = await form.validate()
    const found = checked.valid ? (options.check?.(form.values) ?? {}) : {}
    extraErrors.value = Object.fromEntries(
      Object.entries(found).filter((e): e is [string, string] => !!e[1]),
    )
    return (
      checked.valid && !Object.keys(extraErrors.value).length && !Object.keys(pinned.value).length
    )
  }

  /**
   * Validates, sends, and resolves to the answer, or null when refused (errors are shown and the
   * caret goes back). A second submit while one is running is ignored.
   */
  async function submit(): Promise<Out | null> {
    if (running.value) return null
    alert.value = null
    retryable.value = false
    if (!(await validate())) {
      await giveCaretBack()
      return null
    }
    running.value++
    let result: Result<Out>
    try {
      result = await options.send(toInput(form.values))
    } finally {
      running.value--
    }
    if (result.ok) return result.data
    showError(result.error)
    await giveCaretBack()
    return null
  }

  /** Puts the caret in the first field in error (or the alert when no field is). */
  async function giveCaretBack(): Promise<void> {
    await nextTick()
    const root = options.root?.value
    if (!root) return
    const wrong = [...order(), ...Object.keys(errors.value)].find((name) => errors.value[name])
    const holder = wrong ? root.querySelector(`[data-field="${wrong}"]`) : null
    const control =
      holder?.querySelector<HTMLElement>('input, textarea') ??
      holder?.querySelector<HTMLElement>('[tabindex]') ??
      root.querySelector<HTMLElement>('[role="alert"]')
    control?.focus()
  }

  return {
    values: form.values,
    errors,
    setValue: (name: string, value: unknown) => form.setFieldValue(name, value, false),
    alert,
    retryable,
    saving,
    submit,
    validate,
    reset,
    touch,
    setError,
    clearErrors,
    showError,
    giveCaretBack,
  }
}

/** What useSchemaForm returns: the `form` prop of the kit's form components. */
export type SchemaForm = ReturnType<typeof useSchemaForm<unknown>>
