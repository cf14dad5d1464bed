import type { Release } from '@contract/releases'

/** The part of a catalog entry the views need to decide what to show. */
interface ReleasedOperation {
  id: string
  releases: readonly Release[]
}

/**
 * Ids of the operations of `group` (a catalog group object, e.g. reportsOperations) that exist in
 * `release`; with no release known every operation is offered (main refuses what is missing).
 */
export function operationsIn(
  group: Record<string, ReleasedOperation>,
  release: Release | null | undefined,
): Set<string> {
  const all = Object.values(group)
  return new Set(all.filter((op) => !release || op.releases.includes(release)).map((op) => op.id))
}
