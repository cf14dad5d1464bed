import type { RouteLocationRaw } from 'vue-router'
import type { GroupId } from '@contract/catalog'
import { documentResources } from './entries/documents'
import { findingsResources } from './entries/findings'
import { scanningResources } from './entries/scanning'
import { serviceResources } from './entries/service'
import type { ListOperationId } from '@/data/useOperationList'
import type { ResourceDef, ResourceKey } from './types'

export * from './types'
export { lazyComponent } from './lazy'
export { RESOURCE_LISTS } from './keys'

/** Every resource with a generic screen, in sidebar order of their groups. */
export const RESOURCES: readonly ResourceDef[] = [
  ...scanningResources,
  ...documentResources,
  ...findingsResources,
  ...serviceResources,
]

const byKey = new Map<string, ResourceDef>(RESOURCES.map((r) => [r.key, r]))

/** The resource declared under `key`, or undefined. */
export function resourceByKey(key: string): ResourceDef | undefined {
  return byKey.get(key)
}

/** The resources a group's page lists (not the nested ones), its main one first. */
export function resourcesOf(group: GroupId): ResourceDef[] {
  const list = RESOURCES.filter((r) => r.group === group && !r.nested)
  return list.sort((a, b) => Number(b.key === group) - Number(a.key === group))
}

/** One tab of a group's generic page: a resource's list, or one of its alternative views. */
export interface GroupTab {
  name: string
  label: string
  resource: ResourceDef
  /** The view's list operation; none for the resource's own list. */
  op: ListOperationId | undefined
}

/**
 * The tabs of a group's generic page (ResourceListView), in order: each resource's list and its
 * views, those whose operation the account's release has (`has`).
 */
export function groupTabs(group: GroupId, has: (op: string) => boolean): GroupTab[] {
  return resourcesOf(group)
    .flatMap((r): GroupTab[] => [
      { name: r.key, label: capital(r.plural), resource: r, op: undefined },
      ...(r.views ?? []).map((v) => ({
        name: `${r.key}:${v.op}`,
        label: v.label,
        resource: r,
        op: v.op,
      })),
    ])
    .filter((t) => has(t.op ?? t.resource.ops.list))
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** Groups that have a generic screen. */
export const RESOURCE_GROUPS: ReadonlySet<GroupId> = new Set(RESOURCES.map((r) => r.group))

/**
 * Groups with a view of their own and no registry entry: White label (its settings are one record,
 * not a list). Their views are in screens.ts.
 */
export const GROUPS_WITHOUT_ENTRY = ['white_label'] as const satisfies readonly GroupId[]

/** Groups whose routes are declared elsewhere (My account's tabs: views/user/routes.ts). */
export const OWN_ROUTES: readonly GroupId[] = ['user']

/**
 * Groups that are not a page: the Authentication operations live in the sign-in, link and
 * account dialogs.
 */
export const NOT_A_PAGE: readonly GroupId[] = ['auth']

/** Groups that have a screen: the sidebar offers these and names the rest as not built yet. */
export const BUILT_GROUPS: ReadonlySet<GroupId> = new Set([
  ...RESOURCE_GROUPS,
  ...GROUPS_WITHOUT_ENTRY,
  ...OWN_ROUTES,
])

// Body and query fields that name another resource, by the service's naming habit.
const REFERENCES: Record<string, ResourceKey> = {
  target_id: 'targets',
  target_ids: 'targets',
  scan_id: 'scans',
  scanner_id: 'scanners',
  port_list_id: 'port_lists',
  credential_ids: 'credentials',
  schedule_id: 'schedules',
  host_id: 'hosts',
  vulnerability_id: 'vulnerabilities',
  organization_id: 'organizations',
  user_id: 'users',
  template_id: 'saq',
  webhook_id: 'webhooks',
  // Who did something: a user's id.
  actor_id: 'users',
  created_by: 'users',
  activated_by: 'users',
  approved_by: 'users',
}

// The service's record types (the `type` of its records, the audit's `resource_type`).
const TYPES: Record<string, ResourceKey> = {
  target: 'targets',
  scan: 'scans',
  report: 'reports',
  advanced_report: 'advanced_reports',
  vulnerability: 'vulnerabilities',
  exception: 'exceptions',
  schedule: 'schedules',
  webhook: 'webhooks',
  notification: 'notifications',
  host: 'hosts',
  scanner: 'scanners',
  port_list: 'port_lists',
  credential: 'credentials',
  organization: 'organizations',
  user: 'users',
  saq: 'saq',
}

/** The resource whose records have the service's type `type` (`scan` → scans), or null. */
export function resourceOfType(type: unknown): ResourceDef | null {
  return (typeof type === 'string' && byKey.get(TYPES[type])) || null
}

/** The resource a field of `resource`'s forms or filters picks from, or null for a plain field. */
export function pickerFor(resource: ResourceDef | undefined, field: string): ResourceDef | null {
  const key = resource?.fields?.[field]?.picker ?? REFERENCES[field]
  return (key && byKey.get(key)) || null
}

/** How main read a row it could not read strictly (see electron/core/http/tolerant.ts). */
export interface RowMark {
  asText?: string[]
  partial?: true
}

/** The key of that mark on a row (never a field the service sends). */
const ROW_MARK = '__scandesk'

/**
 * A row of any list as the generic screens use it; null for anything not shaped like one (a row
 * without a usable id is not shown: main's warning says how many did not fit).
 */
export function toRow(
  value: unknown,
): { id: string; attributes: Record<string, unknown>; mark?: RowMark } | null {
  if (!value || typeof value !== 'object') return null
  const { id, attributes } = value as { id?: unknown; attributes?: unknown }
  if (typeof id !== 'string') return null
  const raw = (value as Record<string, unknown>)[ROW_MARK]
  const mark = raw && typeof raw === 'object' ? { mark: raw as RowMark } : {}
  if (!attributes || typeof attributes !== 'object' || Array.isArray(attributes))
    return { id, attributes: {}, ...mark }
  return { id, attributes: { ...attributes }, ...mark }
}

/** The rows of a list answer that have the resource shape. */
export function toRows(values: readonly unknown[]) {
  return values.flatMap((v) => toRow(v) ?? [])
}

/** The route name of a resource's detail page. */
export const detailName = (resource: ResourceDef) => `${resource.key}-detail`

/** Where a row's detail page is. */
export function detailRoute(resource: ResourceDef, id: string): RouteLocationRaw {
  return { name: detailName(resource), params: { id } }
}
