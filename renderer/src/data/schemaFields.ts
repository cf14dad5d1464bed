import type { z } from 'zod'

/** The control a body field gets, derived from its zod schema. */
export type FieldKind =
  | 'text'
  | 'textarea'
  | 'password'
  | 'email'
  | 'url'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'enum-list'
  | 'string-list'
  | 'datetime'
  | 'unsupported'

/** One field of a form, as the form kit renders it. */
export interface FieldSpec {
  name: string
  kind: FieldKind
  required: boolean
  nullable: boolean
  options: readonly string[]
  min?: number
  max?: number
}

interface Def {
  type: string
  innerType?: z.ZodType
  in?: z.ZodType
  element?: z.ZodType
  entries?: Record<string, string>
  shape?: Record<string, z.ZodType>
  format?: string
  checks?: {
    _zod: {
      def: { check: string; value?: unknown; minimum?: number; maximum?: number; format?: string }
    }
  }[]
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

const SECRET = /(^|_)(password|passphrase|secret|private_key|token)$/
const LONG = /(^|_)(description|reason|note|body|message|question)$/

/** Unwraps optional/nullable/default/pipe layers, noting what they say. */
function unwrap(schema: z.ZodType): { core: z.ZodType; optional: boolean; nullable: boolean } {
  let core = schema
  let optional = false
  let nullable = false
  for (;;) {
    const def = defOf(core)
    if (def.type === 'optional' || def.type === 'default') optional = true
    else if (def.type === 'nullable') nullable = true
    else if (def.type !== 'readonly' && def.type !== 'pipe') break
    core = (def.type === 'pipe' ? def.in : def.innerType) as z.ZodType
  }
  return { core, optional, nullable }
}

function bounds(def: Def): { min?: number; max?: number } {
  const out: { min?: number; max?: number } = {}
  for (const c of def.checks ?? []) {
    const { check, value, minimum, maximum } = c._zod.def
    if (check === 'min_length' && minimum !== undefined) out.min = minimum
    if (check === 'max_length' && maximum !== undefined) out.max = maximum
    if (check === 'greater_than' && typeof value === 'number') out.min = value
    if (check === 'less_than' && typeof value === 'number') out.max = value
  }
  return out
}

function formatOf(def: Def): string | undefined {
  return def.format ?? def.checks?.find((c) => c._zod.def.format)?._zod.def.format
}

/** The control and rules of one field of a body schema. */
export function describeField(name: string, schema: z.ZodType): FieldSpec {
  const { core, optional, nullable } = unwrap(schema)
  const def = defOf(core)
  const base = { name, required: !optional, nullable, options: [] as string[] }
  switch (def.type) {
    case 'string': {
      const format = formatOf(def)
      const kind: FieldKind =
        format === 'email'
          ? 'email'
          : format === 'url'
            ? 'url'
            : format === 'datetime'
              ? 'datetime'
              : SECRET.test(name)
                ? 'password'
                : LONG.test(name)
                  ? 'textarea'
                  : 'text'
      return { ...base, kind, ...bounds(def) }
    }
    case 'number':
    case 'int':
      return { ...base, kind: 'number', ...bounds(def) }
    case 'boolean':
      return { ...base, kind: 'boolean' }
    case 'enum':
      return { ...base, kind: 'enum', options: Object.values(def.entries ?? {}) }
    case 'array': {
      const element = defOf(unwrap(def.element as z.ZodType).core)
      if (element.type === 'enum')
        return { ...base, kind: 'enum-list', options: Object.values(element.entries ?? {}) }
      if (element.type === 'string') return { ...base, kind: 'string-list', ...bounds(def) }
      return { ...base, kind: 'unsupported' }
    }
    default:
      return { ...base, kind: 'unsupported' }
  }
}

/** The fields of an object body schema, in the schema's order; [] for anything else. */
export function describeBody(schema: z.ZodType | null): FieldSpec[] {
  if (!schema) return []
  const def = defOf(unwrap(schema).core)
  if (def.type !== 'object' || !def.shape) return []
  return Object.entries(def.shape).map(([name, field]) => describeField(name, field))
}

/** Words written in capitals in labels. */
const ACRONYMS: Record<string, string> = {
  saq: 'SAQ',
  url: 'URL',
  cve: 'CVE',
  cvss: 'CVSS',
  pci: 'PCI',
}

/**
 * A readable label for a wire name: `scanner_id` → "Scanner", `expires_at` → "Expires at",
 * `saq_type` → "SAQ type".
 */
export function labelOf(name: string): string {
  const words = name
    .replace(/_ids?$/, '')
    .split('_')
    .map((w) => ACRONYMS[w] ?? w)
    .join(' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}
