// A list's first read, started as the router enters its page: beside the page's code loading and
// its setting up, not after them. The list's screen makes the same request from the same state
// (useResourceList: the address's filters, search, sort and page; useOperationList: listInput),
// so its own ask finds the read on its way and sends nothing more.
import { useQueryCache } from '@pinia/colada'
import type { LocationQuery } from 'vue-router'
import type { GroupId, InputOf } from '@contract/catalog'
import { addressedListState } from '@/composables/resourceList'
import { tabNamed } from '@/composables/tabInAddress'
import { groupTabs, RESOURCES, type ResourceDef } from '@/resources'
import { useAppStore } from '@/stores/app'
import { operationInRelease } from '@/stores/scope'
import { backgroundReads, type Limiter } from './backgroundReads'
import { listInput, type ListOperationId } from './useOperationList'
import { startOperationRead } from './useOperation'

/** One read: the operation and its input. */
export interface ListRead {
  op: ListOperationId
  input: InputOf<ListOperationId>
}

function readOf(resource: ResourceDef, op: ListOperationId, query: LocationQuery): ListRead {
  return {
    op,
    input: listInput(addressedListState(resource, op, query), {}) as InputOf<ListOperationId>,
  }
}

/**
 * The read a group's page makes first at an address (its `query`), for an account whose release
 * has what `has` says: its tab's list (ResourceListView), or a view of its own's main list when
 * its entry says it is read from the address (`custom.listReadFromAddress`) and the address has
 * none of the view's own filters. Null when the page reads nothing first or decides it itself.
 */
export function firstListRead(
  group: GroupId,
  query: LocationQuery,
  has: (op: string) => boolean,
): ListRead | null {
  const own = RESOURCES.find((r) => r.group === group && r.custom?.list)
  if (own) {
    const rule = own.custom?.listReadFromAddress
    if (!rule || rule.unless.some((key) => key in query) || !has(own.ops.list)) return null
    return readOf(own, own.ops.list, query)
  }
  const tabs = groupTabs(group, has)
  const name = tabNamed(
    tabs.map((t) => t.name),
    query.tab,
  )
  const tab = tabs.find((t) => t.name === name)
  return tab ? readOf(tab.resource, tab.op ?? tab.resource.ops.list, query) : null
}

/** The longest a list's first read holds the window's background work back (a slow service). */
export const FIRST_READ_HOLD_MS = 3000

/**
 * Starts the first read of the page of `group` at `query` for the window's account, if any, and
 * holds the window's background work (`limiter`: the lower panels' reads, the other screens'
 * code loading while idle) until its rows are drawn: the frame after its answer, or
 * FIRST_READ_HOLD_MS at most. The navigation's own hold ends a task after the move, while the
 * list's read was still on its way; on the large seed the next screens' chunks then loaded
 * beside it, and were parsed while its rows were drawn (issue 36, lists).
 */
export function startFirstListRead(
  group: GroupId,
  query: LocationQuery,
  limiter: Limiter = backgroundReads,
): void {
  const app = useAppStore()
  const accountId = app.accountId
  if (!accountId) return
  const release = app.account?.release
  const read = firstListRead(group, query, (op) => operationInRelease(op, release))
  if (!read) return
  const done = limiter.hold()
  const timer = setTimeout(done, FIRST_READ_HOLD_MS)
  void startOperationRead(useQueryCache(), accountId, read.op, read.input).then(() =>
    afterDrawn(() => {
      clearTimeout(timer)
      done()
    }),
  )
}

/** Runs `run` once the next frame has been drawn (a task after it; in a test: a task later). */
function afterDrawn(run: () => void): void {
  if (typeof requestAnimationFrame === 'function')
    requestAnimationFrame(() => void setTimeout(run, 0))
  else setTimeout(run, 0)
}
