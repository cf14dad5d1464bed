import { computed } from 'vue'
import type { NameRef } from '@/data/useNames'
import { nameSourceOf, useRecordNames } from './recordNames'
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
  const embedded = embeddedId(value)
  if (embedded && !column?.link) {
    // A record the answer carries whole (`vulnerability: {id, title, …}`): by its name, linked.
    const target = pickerFor(resource, `${key}_id`)
    if (!target) return null
    const name = (value as Record<string, unknown>)[target.titleField]
    return {
      resource: target,
      ids: [embedded],
      ...(typeof name === 'string' && name ? { given: name } : {}),
    }
  }
  const target = column?.link ? (resourceByKey(column.link) ?? null) : pickerFor(resource, key)
  // Only records that have a page or a name to show (a scan profile's code stays as it is).
  if (!target || (!target.ops.show && !nameSourceOf(target))) return null
  // An attribute that is neither an id, a list of ids nor empty is not shown as a reference.
  const scalar = value !== null && value !== undefined && typeof value !== 'string'
  if (scalar && !Array.isArray(value)) return null
  return { resource: target, ids: idsIn(value) }
}

/** The id of a record carried whole in an attribute (`{id, title, …}`), or null. */
function embeddedId(value: unknown): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null
  const id = (value as { id?: unknown }).id
  return typeof id === 'string' && id ? id : null
}

/**
 * The attributes of a record that another attribute already shows by name, so a detail page shows
 * them once: the id beside a name its column links (`host_id` beside `host_ip`), and the id of a
 * record the answer also carries whole (`vulnerability_id` beside `vulnerability: {id, title}`).
 */
export function shownElsewhere(
  resource: ResourceDef | undefined,
  attributes: Record<string, unknown>,
): Set<string> {
  const out = new Set<string>()
  for (const c of resource?.columns ?? [])
    if (c.link && c.linkId && referenceOf(resource, c, c.key, attributes)) out.add(c.linkId)
  for (const [key, value] of Object.entries(attributes)) {
    const id = embeddedId(value)
    if (id && attributes[`${key}_id`] === id && pickerFor(resource, `${key}_id`))
      out.add(`${key}_id`)
  }
  return out
}

/** The records whose names `references` need read (those that do not carry their name). */
export function namesWanted(references: readonly (Reference | null)[]): NameRef[] {
  const out: NameRef[] = []
  for (const r of references)
    if (r?.resource && r.given === undefined)
      for (const id of r.ids) out.push({ kind: r.resource.key, id })
  return out
}

/**
 * The references a table's rows make in its columns that name other records (after the first,
 * which is the row's own link), and their names: one batch per kind for the page.
 */
export function useRowReferences(
  resource: ResourceDef,
  rows: () => readonly { id: string; attributes: Record<string, unknown> }[],
) {
  const columns = resource.columns.filter((c, i) => i > 0 && (c.link || c.linkType))
  const references = computed(() => {
    const byRow = new Map<string, Record<string, Reference | null>>()
    for (const r of rows())
      byRow.set(
        r.id,
        Object.fromEntries(
          columns.map((c) => [c.key, referenceOf(resource, c, c.key, r.attributes)]),
        ),
      )
    return byRow
  })
  const { nameOf } = useRecordNames(() =>
    namesWanted([...references.value.values()].flatMap((r) => Object.values(r))),
  )
  return {
    referenceIn: (id: string, key: string) => references.value.get(id)?.[key] ?? null,
    nameOf,
  }
}
