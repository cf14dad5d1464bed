// How a handler reaches one account's service: its gated client (the demo service started first
// when needed) and the offline policy's dependencies around it.
import { signedInIdentity } from '../accounts/identity'
import type { OfflineCallDeps } from '../offline/calls'
import type { AccountRow } from '../store/accounts-repo'
import type { HandlerContext } from './context'

/** The account's gated client, starting the demo service first when needed. */
export function clientOf(ctx: Pick<HandlerContext, 'demo' | 'accounts' | 'clients'>) {
  return async (row: AccountRow) => {
    let current = row
    if (ctx.demo.needsStart(current)) {
      await ctx.demo.ensureFor(current)
      current = ctx.accounts.row(current.id)
    }
    return ctx.clients.client(current)
  }
}

/** What an account's calls under the offline policy need from the handler context. */
export function offlineCallDeps(
  ctx: Pick<
    HandlerContext,
    'cache' | 'connectivity' | 'outbox' | 'accountsRepo' | 'clients' | 'log'
  >,
  client: OfflineCallDeps['client'],
): OfflineCallDeps {
  return {
    cache: ctx.cache,
    connectivity: ctx.connectivity,
    outbox: ctx.outbox,
    owner: (id) => signedInIdentity(ctx.accountsRepo, ctx.clients, id),
    client,
    awaitingSignIn: (id) => ctx.clients.gate.isPaused(id),
    log: ctx.log,
  }
}
