import { fail } from '@contract/errors'
import { MAIN_ONLY_OPERATIONS } from '@contract/sessions'
import { catalogIfLoaded, loadCatalog } from '../catalog'
import { offlineCall } from '../offline/calls'
import { clientOf, offlineCallDeps } from './account-calls'
import type { HandlerTable } from './dispatch'
import type { HandlerContext } from './context'

/** What api.call answers for an operation that returns or consumes credentials. */
export const MAIN_ONLY_MESSAGE = 'This operation runs only through ScanDesk’s own sign-in screens.'

/**
 * api.call runs one catalog operation for an account under its offline policy (through the
 * account's gated client: a session that ended pauses the call until the user signs in again):
 * reads are served from the offline copy when the service cannot be reached, safe writes wait in
 * the outbox, the rest fail fast with OFFLINE. api.cancel aborts one call.
 */
export function apiHandlers(ctx: HandlerContext): Pick<HandlerTable, 'api.call' | 'api.cancel'> {
  const client = clientOf(ctx)
  return {
    'api.call': async ({ accountId, op, requestId, input }) => {
      if (MAIN_ONLY_OPERATIONS.has(op)) fail('FORBIDDEN', MAIN_ONLY_MESSAGE)
      const catalog = catalogIfLoaded() ?? (await loadCatalog())
      const def =
        catalog.findOperation(op) ??
        fail('UNKNOWN_OPERATION', `ScanDesk does not know the operation "${op.slice(0, 60)}".`)
      const row = ctx.accounts.row(accountId)
      const signal = requestId ? ctx.cancels.start(requestId) : undefined
      try {
        return await offlineCall(offlineCallDeps(ctx, client), row, def, input ?? {}, signal)
      } finally {
        if (requestId && signal) ctx.cancels.finish(requestId, signal)
      }
    },
    'api.cancel': async ({ requestId }) => ({ cancelled: ctx.cancels.cancel(requestId) }),
  }
}
