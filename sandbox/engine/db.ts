import { SandboxHttpError, type Row, type SandboxDb, type SandboxState } from '../types'

/** A fresh, empty state. */
export function emptyState(): SandboxState {
  return { collections: {}, counters: {} }
}

/** A SandboxDb over `state`, plus a dirty flag the engine reads to decide whether to save. */
export interface EngineDb extends SandboxDb {
  /** True once any write method ran since the last `clearDirty()`. */
  readonly dirty: boolean
  clearDirty(): void
  /** Replaces the whole state (reset, load). */
  replace(state: SandboxState): void
}

/** Formats an id: prefix plus the number zero-padded to 3 digits (tgt-001 … tgt-999, tgt-1000). */
export function formatId(prefix: string, n: number): string {
  return `${prefix}-${String(n).padStart(3, '0')}`
}

/** Creates the store used by the engine and every domain. */
export function createDb(initial: SandboxState = emptyState()): EngineDb {
  let state = initial
  let dirty = false
  // Rows of each collection in insertion order, kept while only inserts happen: Object.values
  // over 100,000 keys costs far more than copying this array (the large seed scale).
  let ordered = new Map<string, Row[]>()
  const coll = (name: string): Record<string, Row> =>
    (state.collections[name] ??= Object.create(null) as Record<string, Row>)
  const has = (name: string, id: string): boolean =>
    Object.prototype.hasOwnProperty.call(state.collections[name] ?? {}, id)

  const db: EngineDb = {
    get state() {
      return state
    },
    get dirty() {
      return dirty
    },
    clearDirty() {
      dirty = false
    },
    replace(next) {
      state = next
      ordered = new Map()
      dirty = true
    },
    list(collection) {
      const rows = state.collections[collection]
      if (!rows) return []
      let cached = ordered.get(collection)
      if (!cached) ordered.set(collection, (cached = Object.values(rows)))
      return cached.slice()
    },
    get(collection, id) {
      return has(collection, id) ? state.collections[collection][id] : undefined
    },
    require(collection, id) {
      const row = db.get(collection, id)
      if (!row) throw new SandboxHttpError(404, `Couldn't find ${collection} with id ${id}`)
      return row
    },
    insert(collection, row) {
      if (has(collection, row.id)) {
        throw new SandboxHttpError(409, `${collection} ${row.id} already exists`)
      }
      dirty = true
      coll(collection)[row.id] = row
      ordered.get(collection)?.push(row)
      return row
    },
    update(collection, id, attributes, internal) {
      const row = db.require(collection, id)
      dirty = true
      row.attributes = { ...row.attributes, ...attributes }
      if (internal) row.internal = { ...(row.internal ?? {}), ...internal }
      return row
    },
    remove(collection, id) {
      if (!has(collection, id)) return false
      dirty = true
      delete state.collections[collection][id]
      ordered.delete(collection)
      return true
    },
    nextId(prefix) {
      dirty = true
      const n = (state.counters[prefix] ?? 0) + 1
      state.counters[prefix] = n
      return formatId(prefix, n)
    },
    reserveId(id) {
      const m = /^([a-z]+)-(\d+)$/.exec(id)
      if (!m) return
      const n = Number(m[2])
      if (n <= (state.counters[m[1]] ?? 0)) return
      dirty = true
      state.counters[m[1]] = n
    },
  }
  return db
}
