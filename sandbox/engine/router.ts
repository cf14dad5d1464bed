import type { HttpMethod, OperationDef } from '@contract/catalog/types'
import type { Release } from '@contract/releases'

interface Node {
  literals: Map<string, Node>
  param?: Node
  /** Operations ending here, by method, with their placeholder names per path position. */
  ops: Map<string, { op: OperationDef; params: (string | null)[] }>
}

/** Result of routing one request. */
export type RouteMatch =
  | { kind: 'op'; op: OperationDef; params: Record<string, string> }
  | { kind: 'not_found'; reason: 'path' | 'release' }
  | { kind: 'method_not_allowed'; allow: string[] }

/** A compiled router for one release. */
export interface Router {
  match(method: string, pathname: string): RouteMatch
}

const node = (): Node => ({ literals: new Map(), ops: new Map() })

function splitPath(pathname: string): string[] | null {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname
  const raw = trimmed.split('/').slice(1)
  try {
    return raw.map((s) => decodeURIComponent(s))
  } catch {
    return null
  }
}

/**
 * Compiles method + path templates into a segment tree once. Literal segments win over
 * `{param}` segments (with backtracking), so `/v2/scans/running` and `/v2/scans/{id}` coexist.
 * Operations outside `release` are routed but answer 'not_found' (reason 'release').
 */
export function createRouter(operations: readonly OperationDef[], release: Release): Router {
  const root = node()
  for (const op of operations) {
    let cur = root
    const params: (string | null)[] = []
    for (const seg of op.path.split('/').slice(1)) {
      const m = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(seg)
      if (m) {
        cur = cur.param ??= node()
        params.push(m[1])
      } else {
        let next = cur.literals.get(seg)
        if (!next) cur.literals.set(seg, (next = node()))
        cur = next
        params.push(null)
      }
    }
    if (cur.ops.has(op.method)) {
      throw new Error(
        `routes ${op.id} and ${cur.ops.get(op.method)!.op.id} share ${op.method} ${op.path}`,
      )
    }
    cur.ops.set(op.method, { op, params })
  }

  /** Terminal nodes matching the segments, literal-first order. */
  function* walk(cur: Node, segs: string[], i: number): Generator<Node> {
    if (i === segs.length) {
      if (cur.ops.size > 0) yield cur
      return
    }
    const lit = cur.literals.get(segs[i])
    if (lit) yield* walk(lit, segs, i + 1)
    if (cur.param && segs[i] !== '') yield* walk(cur.param, segs, i + 1)
  }

  return {
    match(method, pathname) {
      const segs = splitPath(pathname)
      if (!segs) return { kind: 'not_found', reason: 'path' }
      let firstAllow: string[] | null = null
      for (const end of walk(root, segs, 0)) {
        const hit = end.ops.get(method as HttpMethod)
        if (!hit) {
          firstAllow ??= [...end.ops.keys()]
          continue
        }
        if (!hit.op.releases.includes(release)) return { kind: 'not_found', reason: 'release' }
        const params: Record<string, string> = {}
        hit.params.forEach((name, idx) => {
          if (name) params[name] = segs[idx]
        })
        return { kind: 'op', op: hit.op, params }
      }
      if (firstAllow) return { kind: 'method_not_allowed', allow: firstAllow }
      return { kind: 'not_found', reason: 'path' }
    },
  }
}
