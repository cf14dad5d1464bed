import { findOperation } from '@contract/catalog/index'
import { AppFailure } from '@contract/errors'
import type { HandlerTable } from './dispatch'
import type { HandlerContext } from './context'

/** api.call runs one catalog operation for an account; api.cancel aborts one by request id. */
export function apiHandlers(ctx: HandlerContext): Pick<HandlerTable, 'api.call' | 'api.cancel'> {
  return {
    'api.call': async ({ accountId, op, requestId, input }) => {
      let row = ctx.accounts.row(accountId)
      const signal = requestId ? ctx.cancels.start(requestId) : undefined
      try {
        if (row.isDemo) {
          await ctx.demo.ensureFor(row)
          row = ctx.accounts.row(accountId)
        }
        const client = await ctx.clients.client(row)
        const data = await client.call(op, input ?? {}, { signal })
        ctx.connectivity.report(accountId, true)
        return { data, fetchedAt: new Date().toISOString(), fromCache: false }
      } catch (err) {
        if (err instanceof AppFailure) {
          const { code, status } = err.error
          if (code === 'OFFLINE') ctx.connectivity.report(accountId, false)
          else if (status !== undefined) ctx.connectivity.report(accountId, true)
          if (code === 'UNAUTHORIZED' && findOperation(op)?.auth === 'user')
            await ctx.accounts.sessionRefused(accountId)
        }
        throw err
      } finally {
        if (requestId && signal) ctx.cancels.finish(requestId, signal)
      }
    },
    'api.cancel': async ({ requestId }) => ({ cancelled: ctx.cancels.cancel(requestId) }),
  }
}
