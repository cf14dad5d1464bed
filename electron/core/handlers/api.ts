import { AppFailure, fail } from '@contract/errors'
import { MAIN_ONLY_OPERATIONS } from '@contract/sessions'
import type { HandlerTable } from './dispatch'
import type { HandlerContext } from './context'

/** What api.call answers for an operation that returns or consumes credentials. */
export const MAIN_ONLY_MESSAGE = 'This operation runs only through ScanDesk’s own sign-in screens.'

/**
 * api.call runs one catalog operation for an account (through the account's gated client: a
 * session that ended pauses the call until the user signs in again); api.cancel aborts one.
 */
export function apiHandlers(ctx: HandlerContext): Pick<HandlerTable, 'api.call' | 'api.cancel'> {
  return {
    'api.call': async ({ accountId, op, requestId, input }) => {
      if (MAIN_ONLY_OPERATIONS.has(op)) fail('FORBIDDEN', MAIN_ONLY_MESSAGE)
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
        }
        throw err
      } finally {
        if (requestId && signal) ctx.cancels.finish(requestId, signal)
      }
    },
    'api.cancel': async ({ requestId }) => ({ cancelled: ctx.cancels.cancel(requestId) }),
  }
}
