import { findOperationLazily } from '../catalog'
import { signedInIdentity } from '../accounts/identity'
import { offlineCall } from '../offline/calls'
import type { SinceRead } from '../since/counts'
import type { SinceService } from '../since/service'
import { clientOf } from './changes'
import type { HandlerContext } from './context'
import type { HandlerTable } from './dispatch'

/**
 * The account's list reads under the offline policy, with that account's own client and
 * credentials (any signed-in account, not only the window's): the copy when out of reach.
 */
export function sinceRead(ctx: HandlerContext, accountId: string): SinceRead {
  return async (op, input) => {
    const answer = await offlineCall(
      {
        cache: ctx.cache,
        connectivity: ctx.connectivity,
        outbox: ctx.outbox,
        owner: (id) => signedInIdentity(ctx.accountsRepo, ctx.clients, id),
        client: clientOf(ctx),
        log: ctx.log,
      },
      ctx.accounts.row(accountId),
      (await findOperationLazily(op))!,
      input,
      undefined,
    )
    return { data: answer.data, fromCache: answer.fromCache }
  }
}

/** since.counts / since.seen: the dashboard's "Since your last visit". */
export function sinceHandlers(
  since: SinceService,
  ctx: Pick<HandlerContext, 'accounts'>,
): Pick<HandlerTable, 'since.counts' | 'since.seen'> {
  return {
    'since.counts': async ({ accountId }) => {
      ctx.accounts.row(accountId)
      return since.counts(accountId)
    },
    'since.seen': async ({ accountId }) => {
      ctx.accounts.row(accountId)
      return since.seen(accountId)
    },
  }
}
