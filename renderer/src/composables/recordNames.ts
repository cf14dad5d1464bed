import { computed, type MaybeRefOrGetter } from 'vue'
import { findOperation } from '@contract/catalog'
import type { AppError } from '@contract/errors'
import { reasonOf } from '@/data/recordNames'
import { nameText, useNames, type NameRef, type NameSource } from '@/data/useNames'
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
  const show = resource.ops.show ? findOperation(resource.ops.show) : undefined
  const byId = Object.keys((show?.pathParams as { shape?: object } | undefined)?.shape ?? {})
  const source =
    shape && 'ids' in shape
      ? {
          list: resource.ops.list,
          reads: resource.ops.show ? [resource.ops.show] : [],
          field: resource.titleField,
          // its own read, when that takes the id alone: a 404 there says the record is deleted
          ...(show && byId.length === 1 && byId[0] === 'id' ? { confirm: resource.ops.show } : {}),
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

/**
 * A record page's title: the record's name (its resource's title field), read from the page's own
 * read — the offline copy too. Before that read answers, or when it fails, the name any other
 * answer in memory holds (the list the user came from); failing that, the id said as an id:
 * `Host hst-041` while reading, `hst-041 (name not available offline)` when the read failed. Asks
 * nothing of its own.
 */
export function useRecordTitle(
  resource: ResourceDef,
  id: () => string,
  row: () => { attributes: Record<string, unknown> } | null | undefined,
  error: () => AppError | null,
) {
  const { nameOf } = useRecordNames([])
  return computed(() => {
    const r = row()
    if (r) {
      const name = r.attributes[resource.titleField]
      if (typeof name === 'string' && name.trim()) return name.trim()
      if (typeof name === 'number') return String(name)
      return nameText(id(), { state: 'unnamed', reason: 'blank' })
    }
    const known = nameOf(resource.key, id())
    if (known.state === 'named') return known.name
    const failed = error()
    const noun = resource.noun.charAt(0).toUpperCase() + resource.noun.slice(1)
    return failed
      ? nameText(id(), { state: 'unnamed', reason: reasonOf(failed.code) })
      : `${noun} ${id()}`
  })
}
