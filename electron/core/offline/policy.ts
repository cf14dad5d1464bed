import type { z } from 'zod'
import type { OperationDef } from '@contract/catalog/types'
import { MAIN_ONLY_OPERATIONS } from '@contract/sessions'

/** A field name that carries a credential (a token, a password, a key, a one-time code). */
const CREDENTIAL_FIELD =
  /(^|_)(token|tokens|password|secret|private_key|api_key|apikey|otp|recovery_codes?|passphrase)($|_)/i

interface Def {
  type: string
  shape?: Record<string, z.ZodType>
  element?: z.ZodType
  innerType?: z.ZodType
  options?: z.ZodType[]
  in?: z.ZodType
  out?: z.ZodType
  valueType?: z.ZodType
  left?: z.ZodType
  right?: z.ZodType
  items?: z.ZodType[]
  rest?: z.ZodType | null
  getter?: () => z.ZodType
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

/** Every object key the schema can answer with, at any depth. */
export function answerKeys(schema: z.ZodType, seen = new Set<z.ZodType>()): Set<string> {
  const keys = new Set<string>()
  const visit = (s: z.ZodType | null | undefined): void => {
    if (!s || seen.has(s)) return
    seen.add(s)
    const def = defOf(s)
    if (def.shape)
      for (const [key, value] of Object.entries(def.shape)) {
        keys.add(key)
        visit(value)
      }
    for (const child of [def.element, def.innerType, def.in, def.out, def.valueType, def.left])
      visit(child)
    visit(def.right)
    visit(def.rest)
    for (const option of def.options ?? []) visit(option)
    for (const item of def.items ?? []) visit(item)
    if (def.type === 'lazy' && def.getter) visit(def.getter())
  }
  visit(schema)
  return keys
}

/** True when an answer of `op` may carry a credential: such answers are never stored on disk. */
export function carriesCredentials(op: OperationDef): boolean {
  if (MAIN_ONLY_OPERATIONS.has(op.id)) return true
  for (const key of answerKeys(op.response)) if (CREDENTIAL_FIELD.test(key)) return true
  return false
}

/**
 * Per operation id: whether its answers never go to the offline copy. Decided at an operation's
 * first use, not when the module loads (walking every answer schema of the catalog took ~20 ms
 * of the core's start).
 */
const credentialAnswers = new Map<string, boolean>()

function neverCachedOp(op: OperationDef): boolean {
  let never = credentialAnswers.get(op.id)
  if (never === undefined) credentialAnswers.set(op.id, (never = carriesCredentials(op)))
  return never
}

/** Those of `operations` whose answers never go to the offline copy (each answer walked once). */
export function neverCached(operations: readonly OperationDef[]): ReadonlySet<string> {
  return new Set(operations.filter(neverCachedOp).map((op) => op.id))
}

/**
 * True when answers of `op` are kept in the offline copy: a JSON GET whose catalog policy is
 * "cache" and whose answer carries no credential.
 */
export function isCacheable(op: OperationDef): boolean {
  return (
    op.method === 'GET' &&
    op.offline === 'cache' &&
    op.responseKind !== 'file' &&
    !neverCachedOp(op)
  )
}
