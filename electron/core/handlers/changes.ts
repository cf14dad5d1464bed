import { changesCsv } from '../changes/csv'
import type { Read } from '../changes/findings'
import { findOperationLazily } from '../catalog'
import type { ChangesService } from '../changes/service'
import type { CallInput } from '../http/request'
import { offlineCall } from '../offline/calls'
import { clientOf, offlineCallDeps } from './account-calls'
import type { HandlerContext } from './context'
import type { LazyCsvExports } from './csv'
import type { HandlerTable } from './dispatch'

/** Reads of the comparison from the service itself (snapshots are never taken from a copy). */
export function onlineRead(
  ctx: Pick<HandlerContext, 'demo' | 'accounts' | 'clients'>,
  accountId: string,
): Read {
  const client = clientOf(ctx)
  return async (op, input) => {
    const data = await (await client(ctx.accounts.row(accountId))).call(op, input)
    return { data, fromCache: false }
  }
}

/**
 * One account's reads under the offline policy (the copy when the service is out of reach), with
 * that account's own client and credentials (any signed-in account, not only the window's): the
 * comparison's reads and the dashboard's "Since your last visit" counts.
 */
export function offlineRead(
  ctx: HandlerContext,
  accountId: string,
): (op: string, input: CallInput) => ReturnType<Read> {
  return async (op, input) => {
    const answer = await offlineCall(
      offlineCallDeps(ctx, clientOf(ctx)),
      ctx.accounts.row(accountId),
      (await findOperationLazily(op))!,
      input,
      undefined,
    )
    return { data: answer.data, fromCache: answer.fromCache }
  }
}

/** changes.snapshots / changes.compare: what changed between runs of a scan. */
export function changesHandlers(
  changes: ChangesService,
  ctx: Pick<HandlerContext, 'accounts'>,
  csv: LazyCsvExports,
): Pick<HandlerTable, 'changes.snapshots' | 'changes.compare' | 'changes.exportCsv'> {
  return {
    'changes.snapshots': async ({ accountId, scanId }) => {
      ctx.accounts.row(accountId)
      return changes.snapshots(accountId, scanId)
    },
    'changes.compare': async ({ accountId, scanId, from, to }) => {
      ctx.accounts.row(accountId)
      return changes.compare(accountId, scanId, from && to ? { from, to } : undefined)
    },
    // Compared again in main (never rows the renderer sends), then saved like any CSV export.
    'changes.exportCsv': async ({ accountId, scanId, from, to, path, replace }) => {
      ctx.accounts.row(accountId)
      const answer = await changes.compare(accountId, scanId, from && to ? { from, to } : undefined)
      const title = `Changes of ${scanId}${answer.from && answer.to ? `, ${answer.from.runId} to ${answer.to.runId}` : ''}`
      return (await csv()).exportRows({ accountId, title, path, replace }, changesCsv(answer))
    },
  }
}
