import { featureCodesBody, featuresBody } from '@contract/catalog/billing'

/** How a plan or subscription grants one feature, as the service stores it. */
export interface Grant {
  limit: number
  active: boolean
  unlimited: boolean
}

/** A feature of the service's list (billing.list_features). */
export interface FeatureInfo {
  code: string
  name: string
  kind?: string
  description?: string | null
}

/** One row of the features editor: the feature and how it would be granted after saving. */
export interface GrantRow {
  code: string
  name: string
  /** 'limit' features count something; 'toggle' features only switch (no limit to set). */
  kind: string
  description: string
  granted: boolean
  active: boolean
  unlimited: boolean
  /** As typed (a text box, so a bad value can be shown and refused rather than clamped). */
  limit: string
}

/** What Save sends: grants to assign (new or changed) and codes to revoke. */
export interface GrantChanges {
  assign: Record<string, Grant>
  revoke: string[]
}

/** The grants an answer holds, with missing fields filled as the service fills them. */
export function grantsOf(features: unknown): Record<string, Grant> {
  const out: Record<string, Grant> = {}
  if (!features || typeof features !== 'object') return out
  for (const [code, value] of Object.entries(features as Record<string, unknown>)) {
    const g = (value ?? {}) as Record<string, unknown>
    out[code] = {
      limit: typeof g.limit === 'number' ? g.limit : 0,
      active: g.active !== false,
      unlimited: g.unlimited === true,
    }
  }
  return out
}

/**
 * One row per known feature (the service's order), then any feature the grants name that the
 * list does not know (kept, so saving never drops it silently).
 */
export function rowsOf(
  features: readonly FeatureInfo[],
  grants: Record<string, Grant>,
): GrantRow[] {
  const known = new Set(features.map((f) => f.code))
  const all: FeatureInfo[] = [
    ...features,
    ...Object.keys(grants)
      .filter((code) => !known.has(code))
      .map((code) => ({ code, name: code, kind: 'limit' })),
  ]
  return all.map((f) => {
    const g = grants[f.code]
    return {
      code: f.code,
      name: f.name,
      kind: f.kind ?? 'limit',
      description: f.description ?? '',
      granted: g !== undefined,
      active: g?.active ?? true,
      unlimited: g?.unlimited ?? false,
      limit: String(g?.limit ?? 0),
    }
  })
}

/** True when the row's limit box is in use (a counted feature that is granted and not unlimited). */
export function limitEditable(row: GrantRow): boolean {
  return row.granted && row.kind !== 'toggle' && !row.unlimited
}

const WHOLE = /^\d+$/

/** Why the row cannot be saved as it is, or null. */
export function problemOf(row: GrantRow): string | null {
  if (!limitEditable(row)) return null
  const text = row.limit.trim()
  if (text === '') return 'Give a limit (0 or more), or switch on Unlimited.'
  if (!WHOLE.test(text) || !Number.isSafeInteger(Number(text)))
    return 'The limit must be a whole number, 0 or more.'
  return null
}

/** The grant a row stands for (the stored limit kept where the limit box is not in use). */
export function grantOf(row: GrantRow, before: Grant | undefined): Grant {
  const typed = row.limit.trim()
  const limit =
    limitEditable(row) || (WHOLE.test(typed) && Number.isSafeInteger(Number(typed)))
      ? Number(typed)
      : (before?.limit ?? 0)
  return { limit, active: row.active, unlimited: row.unlimited }
}

const sameGrant = (a: Grant, b: Grant) =>
  a.limit === b.limit && a.active === b.active && a.unlimited === b.unlimited

/** True when saving would change how this row's feature is granted. */
export function isDirty(row: GrantRow, before: Record<string, Grant>): boolean {
  const was = before[row.code]
  if (!row.granted) return was !== undefined
  return was === undefined || !sameGrant(grantOf(row, was), was)
}

/** The calls Save makes: new and changed grants, and the codes no longer granted. */
export function changesOf(rows: readonly GrantRow[], before: Record<string, Grant>): GrantChanges {
  const assign: Record<string, Grant> = {}
  const revoke: string[] = []
  for (const row of rows) {
    if (!isDirty(row, before)) continue
    if (row.granted) assign[row.code] = grantOf(row, before[row.code])
    else revoke.push(row.code)
  }
  return { assign, revoke }
}

/**
 * The changes checked by the catalog's own bodies (the schemas main and the service check):
 * a message when they would be refused, null when they can be sent.
 */
export function catalogProblem(changes: GrantChanges): string | null {
  if (Object.keys(changes.assign).length) {
    const r = featuresBody.safeParse({ features: changes.assign })
    if (!r.success)
      return `The features cannot be sent: ${r.error.issues[0]?.message ?? 'invalid'}.`
  }
  if (changes.revoke.length) {
    const r = featureCodesBody.safeParse({ feature_codes: changes.revoke })
    if (!r.success)
      return `The features cannot be removed: ${r.error.issues[0]?.message ?? 'invalid'}.`
  }
  return null
}

/** "Unlimited", "Up to 25", "On" or "Off": how a grant reads in a table. */
export function grantText(grant: Grant, kind = 'limit'): string {
  if (!grant.active) return 'Off'
  if (kind === 'toggle') return 'On'
  return grant.unlimited ? 'Unlimited' : `Up to ${grant.limit.toLocaleString('en-US')}`
}
