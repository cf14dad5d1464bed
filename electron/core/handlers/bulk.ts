import type { HandlerContext } from './context'
import type { HandlerTable } from './dispatch'

type BulkChannels =
  'bulk.start' | 'bulk.list' | 'bulk.get' | 'bulk.cancel' | 'bulk.retry' | 'bulk.dismiss'

/** Bulk runs: one write per record, queued in the outbox, each with its result. */
export function bulkHandlers(ctx: HandlerContext): Pick<HandlerTable, BulkChannels> {
  return {
    'bulk.start': async (input) => ctx.bulk.start(input),
    'bulk.list': async ({ accountId }) => ctx.bulk.list(accountId),
    'bulk.get': async ({ runId, ...page }) => ctx.bulk.get(runId, page),
    'bulk.cancel': async ({ runId }) => ctx.bulk.cancel(runId),
    'bulk.retry': async ({ runId }) => ctx.bulk.retry(runId),
    'bulk.dismiss': async ({ runId }) => ({ dismissed: ctx.bulk.dismiss(runId) }),
  }
}
