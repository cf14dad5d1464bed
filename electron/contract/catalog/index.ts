import type { z } from 'zod'
import type { Release } from '../releases'
import { advancedReportsOperations } from './advanced-reports'
import { auditOperations } from './audit'
import { authOperations } from './auth'
import { billingOperations } from './billing'
import { credentialsOperations } from './credentials'
import { exceptionsOperations } from './exceptions'
import { hostsOperations } from './hosts'
import { notificationsOperations } from './notifications'
import { organizationsOperations } from './organizations'
import { portListsOperations } from './port-lists'
import { reportsOperations } from './reports'
import { saqOperations } from './saq'
import { scannersOperations } from './scanners'
import { scanOperations } from './scans'
import { schedulesOperations } from './schedules'
import { targetOperations } from './targets'
import { userOperations } from './user'
import { usersOperations } from './users'
import { vulnerabilitiesOperations } from './vulnerabilities'
import { webhooksOperations } from './webhooks'
import { whiteLabelOperations } from './white-label'
import type { GroupId, OperationDef, OperationInput } from './types'

export * from './types'

/** The whole operation catalog, keyed by operation id. */
export const catalog = {
  ...authOperations,
  ...targetOperations,
  ...scanOperations,
  ...reportsOperations,
  ...advancedReportsOperations,
  ...vulnerabilitiesOperations,
  ...exceptionsOperations,
  ...schedulesOperations,
  ...webhooksOperations,
  ...auditOperations,
  ...notificationsOperations,
  ...hostsOperations,
  ...scannersOperations,
  ...portListsOperations,
  ...credentialsOperations,
  ...userOperations,
  ...organizationsOperations,
  ...usersOperations,
  ...whiteLabelOperations,
  ...billingOperations,
  ...saqOperations,
} as const

/** Every catalog entry's id. */
export type OperationId = keyof typeof catalog

/** The entry type of operation `Id`. */
export type Op<Id extends OperationId> = (typeof catalog)[Id]

/** Input of operation `Id`. */
export type InputOf<Id extends OperationId> = OperationInput<Op<Id>>

/** Parsed answer of operation `Id`. */
export type OutputOf<Id extends OperationId> = z.output<Op<Id>['response']>

/** All entries as a list, in catalog order. */
export const operations: readonly OperationDef[] = Object.values(catalog)

/** The entry for `id`, or undefined for an unknown id (input from outside). */
export function findOperation(id: string): OperationDef | undefined {
  return Object.prototype.hasOwnProperty.call(catalog, id)
    ? (catalog as Record<string, OperationDef>)[id]
    : undefined
}

/** True when `op` exists in `release`. */
export function inRelease(op: OperationDef, release: Release): boolean {
  return op.releases.includes(release)
}

/** Entries of one group. */
export function operationsOf(group: GroupId): OperationDef[] {
  return operations.filter((op) => op.group === group)
}
