import type { z } from 'zod'
import type { Release } from '../releases'
import { scanOperations } from './scans'
import { targetOperations } from './targets'
import type { GroupId, OperationDef, OperationInput } from './types'

export * from './types'

/** The whole operation catalog, keyed by operation id. */
export const catalog = {
  ...targetOperations,
  ...scanOperations,
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
