import type { MaybeRefOrGetter } from 'vue'
import { findOperation } from '@contract/catalog'
import { useNames, type NameRef, type NameSource } from '@/data/useNames'
import { resourceByKey, type ResourceDef } from '@/resources'

const sources = new Map<string, NameSource | null>()

/**
 * Where the names of a registry resource come from: its list when that list takes `ids` (its
 * detail read too, when already read), named by the resource's title field. Null for a resource
 * whose records cannot be named that way.
 */
export function nameSourceOf(resource: ResourceDef | null | undefined): NameSource | null {
  if (!resource) return null
  if (sources.has(resource.key)) return sources.get(resource.key)!
  const shape = (findOperation(resource.ops.list)?.query as { shape?: object } | undefined)?.shape
  const source =
    shape && 'ids' in shape
      ? {
          list: resource.ops.list,
          reads: resource.ops.show ? [resource.ops.show] : [],
          field: resource.titleField,
        }
      : null
  sources.set(resource.key, source)
  return source
}

/**
 * The names of the records a view refers to by registry resource key (`organizations`) and id:
 * `nameOf(kind, id)`. See useNames for how they are read.
 */
export function useRecordNames(refs: MaybeRefOrGetter<readonly NameRef[]>) {
  return useNames(refs, (kind) => nameSourceOf(resourceByKey(kind)))
}
