// The operation catalog (every operation's zod schemas, about a third of the core's module
// loading) is loaded when an operation is first looked up, or a little after the start
// (warm-up.ts): the first window needs none of it.
import type { OperationDef } from '@contract/catalog/types'

export type Catalog = typeof import('@contract/catalog/index')

let loaded: Catalog | null = null
let loading: Promise<Catalog> | null = null

/** The catalog, loaded once. */
export function loadCatalog(): Promise<Catalog> {
  return (loading ??= import('@contract/catalog/index').then((catalog) => (loaded = catalog)))
}

/** The catalog if it has loaded already, else null (a caller that cannot wait for it). */
export function catalogIfLoaded(): Catalog | null {
  return loaded
}

/** The operation with this id, or undefined; waits only the first time. */
export async function findOperationLazily(id: string): Promise<OperationDef | undefined> {
  return (loaded ?? (await loadCatalog())).findOperation(id)
}
