import { useQueryCache } from '@pinia/colada'
import { nameText } from '@/data/recordNames'
import { searchList, type FoundRow } from '@/data/searchRecords'
import { detailRoute, resourceByKey, type ResourceDef, type ResourceKey } from '@/resources'
import { useAppStore } from '@/stores/app'
import { operationInRelease } from '@/stores/scope'
import {
  containsText,
  type PaletteItem,
  type PaletteSourceFactory,
  type RemoteSource,
} from './types'

/** Records asked per group: enough to pick from, few enough to be fast on the large seed. */
export const RECORDS_PER_GROUP = 5

/** A CVE identifier as typed: searched with the vulnerabilities' `cve_id` filter, not `search`. */
const CVE = /^cve-\d{4}-\d{4,}$/i

/** One group of records the palette finds by name. */
interface RecordKind {
  key: ResourceKey
  heading: string
  /** Attributes the service's `search` looks in (matched offline against rows held in memory). */
  fields: string[]
  /** Attributes shown on the second line, when the row has them. */
  details: string[]
  /** The list's query for `text` (default: `search`). */
  query?: (text: string) => Record<string, unknown>
}

/** The groups of records, in the order the palette shows them. */
export const RECORD_KINDS: readonly RecordKind[] = [
  {
    key: 'targets',
    heading: 'Targets',
    fields: ['name', 'address', 'description'],
    details: ['address'],
  },
  { key: 'scans', heading: 'Scans', fields: ['name', 'description'], details: ['status'] },
  { key: 'hosts', heading: 'Hosts', fields: ['ip', 'hostname', 'os'], details: ['hostname', 'os'] },
  {
    key: 'vulnerabilities',
    heading: 'Vulnerabilities',
    fields: ['title', 'description', 'host_ip', 'cve_ids'],
    details: ['severity', 'cve_ids', 'host_ip'],
    query: (text) => (CVE.test(text) ? { cve_id: text.toUpperCase() } : { search: text }),
  },
  {
    key: 'exceptions',
    heading: 'Exceptions',
    fields: ['reason', 'vulnerability_title', 'host_ip'],
    details: ['kind', 'state', 'host_ip'],
  },
  { key: 'reports', heading: 'Reports', fields: ['name'], details: ['report_type', 'status'] },
  {
    key: 'users',
    heading: 'Users',
    fields: ['email', 'first_name', 'last_name'],
    details: ['first_name', 'last_name', 'role'],
  },
  {
    key: 'saq',
    heading: 'Questionnaires (SAQ)',
    fields: ['name'],
    details: ['saq_type', 'status'],
  },
]

/** An attribute as text (a list's items joined), or '' for anything else. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value.trim()
  if (typeof value === 'number') return String(value)
  if (Array.isArray(value)) return value.map(textOf).filter(Boolean).join(', ')
  return ''
}

/** The palette's entry for a row of `resource`: its name (or its id, said to have none). */
export function recordItem(resource: ResourceDef, kind: RecordKind, row: FoundRow): PaletteItem {
  const name = textOf(row.attributes[resource.titleField])
  const detail = kind.details
    .map((field) => textOf(row.attributes[field]))
    .filter(Boolean)
    .join(' · ')
  return {
    key: row.id,
    label: name || nameText(row.id, { state: 'unnamed', reason: 'blank' }),
    ...(detail ? { detail } : {}),
    to: detailRoute(resource, row.id),
  }
}

/** Whether a row held in memory matches `text` as the service's search would (offline). */
export function rowMatches(kind: RecordKind, row: FoundRow, text: string): boolean {
  if (kind.query && CVE.test(text))
    return textOf(row.attributes.cve_ids).toUpperCase().includes(text.toUpperCase())
  return containsText(text, ...kind.fields.map((field) => textOf(row.attributes[field])))
}

/** The remote source of one group of records, for this window's account. */
function recordSource(kind: RecordKind): RemoteSource | null {
  const resource = resourceByKey(kind.key)
  if (!resource) return null
  const app = useAppStore()
  const cache = useQueryCache()
  return {
    mode: 'remote',
    key: `records:${kind.key}`,
    heading: kind.heading,
    available: () => operationInRelease(resource.ops.list, app.account?.release),
    async search(text, { accountId, offline, signal }) {
      const query = { ...(kind.query?.(text) ?? { search: text }), per_page: RECORDS_PER_GROUP }
      const found = await searchList(
        cache,
        accountId,
        {
          op: resource.ops.list,
          input: { query },
          matches: (row) => rowMatches(kind, row, text),
          limit: RECORDS_PER_GROUP,
        },
        offline,
        signal,
      )
      return {
        items: found.rows.map((row) => recordItem(resource, kind, row)),
        fromCopy: found.fromCopy,
      }
    },
  }
}

/** Every group of records the palette searches (those the registry declares). */
export const recordSources: PaletteSourceFactory = () =>
  RECORD_KINDS.flatMap((kind) => recordSource(kind) ?? [])
