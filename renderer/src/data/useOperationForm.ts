import { computed, type Ref } from 'vue'
import { findOperation, type GroupId, type OperationId } from '@contract/catalog'
import type { DynamicInput } from '@/bridge/bridge'
import { useOfflineGate } from '@/data/offlineGate'
import { describeBody, type FieldSpec } from './schemaFields'
import { toBody } from './typedSchema'
import { isQueued, useOperationCall } from './useOperationCall'
import { useSchemaForm } from './useSchemaForm'

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
 * A form for one catalog write (useSchemaForm over the operation's body schema): its fields come
 * from that schema, values are checked by it before anything is sent, the service's 422 field
 * errors land under their fields (the rest in one alert), `saving` tracks the call, the caret goes
 * back after a refused submit, and the reads the write changes are refreshed. While the write must
 * wait for the service (online-only, service out of reach) `offline` says why, and a submit is
 * refused with that reason before anything is sent; what was typed stays.
 */
export function useOperationForm(op: OperationId, options: OperationFormOptions = {}) {
  const def = findOperation(op)
  if (!def) throw new Error(`unknown operation ${op}`)
  const fields: FieldSpec[] = describeBody(def.body)
  const { runDynamic } = useOperationCall(options.alsoChanges)
  const gate = useOfflineGate()
  const offline = computed(() => gate.blocked(op))
  const form = useSchemaForm<unknown>({
    schema: def.body ?? undefined,
    initial: () => ({ ...blank(fields), ...(options.initial?.() ?? {}) }),
    toInput: (values) => (def.body ? toBody(values, fields, options.initial?.() ?? {}) : undefined),
    order: () => fields.map((f) => f.name),
    root: options.root,
    labels: options.labels,
    check: options.check,
    async send(body) {
      if (offline.value) return { ok: false, error: { code: 'OFFLINE', message: offline.value } }
      const path = options.path?.()
      const result = await runDynamic(op, {
        ...(path ? { path } : {}),
        ...(body ? { body: body as Record<string, unknown> } : {}),
      })
      if (!result.ok) return result
      // A queued write has no answer yet: the form is done all the same (saved gets `{queued}`).
      return {
        ok: true,
        data: isQueued(result.data) ? { queued: result.data.queued } : result.data.data,
      }
    },
  })
  return { fields, offline, ...form }
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
