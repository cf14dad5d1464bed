import type { TypedSchema, TypedSchemaError } from 'vee-validate'
import type { z } from 'zod'
import type { FieldSpec } from './schemaFields'

/**
 * Turns form values into the body the service gets: empty optional values are left out; a field
 * the user emptied (it had a value) is sent empty — null where the schema allows it — so the
 * service clears it (or the schema says why it cannot be empty).
 */
export function toBody(
  values: Record<string, unknown>,
  fields: readonly FieldSpec[],
  initial: Record<string, unknown> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const specs = new Map(fields.map((f) => [f.name, f]))
  for (const [name, value] of Object.entries(values)) {
    const spec = specs.get(name)
    // Values outside the body (a confirmation field) stay in the form.
    if (!spec) continue
    const empty =
      value === undefined ||
      value === null ||
      value === '' ||
      (Array.isArray(value) && value.length === 0 && !spec.required)
    const had = initial[name] !== undefined && initial[name] !== null && initial[name] !== ''
    if (!empty) out[name] = value
    else if (had) out[name] = spec.nullable ? null : value
    else if (spec.required && value !== undefined) out[name] = value
  }
  return out
}

/**
 * vee-validate's typed-schema contract over a zod 4 schema (its own @vee-validate/zod supports
 * zod 3 only): values are turned into the input (a body, a channel's input), checked by the
 * contract's schema, and each issue is reported under its top-level field.
 */
export function zodTypedSchema(
  schema: z.ZodType,
  toInput: (values: Record<string, unknown>) => unknown,
): TypedSchema<Record<string, unknown>, Record<string, unknown>> {
  return {
    __type: 'VVTypedSchema',
    async parse(values) {
      const result = schema.safeParse(toInput(values))
      if (result.success) return { value: result.data as Record<string, unknown>, errors: [] }
      const byField = new Map<string, string[]>()
      for (const issue of result.error.issues) {
        const key = issue.path.length ? String(issue.path[0]) : ''
        byField.set(key, [...(byField.get(key) ?? []), issue.message])
      }
      const errors: TypedSchemaError[] = [...byField].map(([path, messages]) => ({
        path,
        errors: messages,
      }))
      return { errors }
    },
  }
}
