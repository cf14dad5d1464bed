import type { NameRef } from '@/data/useNames'
import { nameSourceOf } from './recordNames'
import {
  pickerFor,
  resourceByKey,
  resourceOfType,
  type ColumnDef,
  type ResourceDef,
} from '@/resources'

/** How one attribute of a record refers to other records. */
export interface Reference {
  /** The resource of the records it names (null: a kind ScanDesk has no screen for). */
  resource: ResourceDef | null
  /** Their ids (none: the attribute names no record, said in words). */
  ids: string[]
  /** The name the record itself carries beside the id (a finding's host IP): nothing to read. */
  given?: string
}

const idsIn = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string' && v !== '')
    : typeof value === 'string' && value !== ''
      ? [value]
      : []

/**
 * How the attribute `key` of a record of `resource` refers to other records: by its column
 * (`link`, `linkId`, `linkType`) or by the service's naming habit (`scanner_id`, `created_by`).
 * Null for an attribute that is not a reference.
 */
export function referenceOf(
  resource: ResourceDef | undefined,
  column: ColumnDef | undefined,
  key: string,
  attributes: Record<string, unknown>,
): Reference | null {
  const value = attributes[key]
  if (column?.linkId) {
    const id = attributes[column.linkId]
    if (typeof id !== 'string' || !id || typeof value !== 'string' || !value) return null
    return { resource: resourceByKey(column.link ?? '') ?? null, ids: [id], given: value }
  }
  if (column?.linkType) {
    const target = resourceOfType(attributes[column.linkType])
    const ids = idsIn(value)
    return ids.length ? { resource: target, ids } : null
  }
  const target = column?.link ? (resourceByKey(column.link) ?? null) : pickerFor(resource, key)
  // Only records that have a page or a name to show (a scan profile's code stays as it is).
  if (!target || (!target.ops.show && !nameSourceOf(target))) return null
  // An attribute that is neither an id, a list of ids nor empty is not shown as a reference.
  const scalar = value !== null && value !== undefined && typeof value !== 'string'
  if (scalar && !Array.isArray(value)) return null
  return { resource: target, ids: idsIn(value) }
}

/** The attributes `resource`'s columns show in place of an id (`host_id` beside `host_ip`). */
export function shownByName(resource: ResourceDef | undefined): Set<string> {
  return new Set((resource?.columns ?? []).flatMap((c) => (c.link && c.linkId ? [c.linkId] : [])))
}

/** The records whose names `references` need read (those that do not carry their name). */
export function namesWanted(references: readonly (Reference | null)[]): NameRef[] {
  const out: NameRef[] = []
  for (const r of references)
    if (r?.resource && r.given === undefined)
      for (const id of r.ids) out.push({ kind: r.resource.key, id })
  return out
}
