import type { HandlerContext } from './context'
import type { HandlerTable } from './dispatch'

type OfflineChannels =
  | 'connectivity.get'
  | 'connectivity.setWorkOffline'
  | 'connectivity.network'
  | 'connectivity.check'
  | 'cache.status'
  | 'cache.clear'
  | 'outbox.list'
  | 'outbox.retry'
  | 'outbox.discard'

/** Connectivity, the offline copy and the outbox. */
export function offlineHandlers(ctx: HandlerContext): Pick<HandlerTable, OfflineChannels> {
  const ids = () => ctx.accountsRepo.list().map((row) => row.id)
  return {
    'connectivity.get': async () => ctx.connectivity.overview(ids()),
    'connectivity.setWorkOffline': async ({ on }) => {
      ctx.connectivity.setWorkOffline(on)
      return ctx.connectivity.overview(ids())
    },
    'connectivity.network': async ({ online }) => {
      ctx.connectivity.setNetwork(online)
      return ctx.connectivity.overview(ids())
    },
    'connectivity.check': async ({ accountId }) =>
      ctx.connectivity.check(ctx.accounts.row(accountId).id),
    'cache.status': async ({ accountId }) => ctx.cache.status(ctx.accounts.row(accountId).id),
    'cache.clear': async ({ accountId }) => {
      const id = ctx.accounts.row(accountId).id
      ctx.cache.clear(id)
      ctx.cache.checkpoint()
      return ctx.cache.status(id)
    },
    'outbox.list': async ({ accountId }) => ctx.outbox.list(accountId),
    'outbox.retry': async ({ id }) => ctx.outbox.retry(id),
    'outbox.discard': async ({ id }) => ({ discarded: ctx.outbox.discard(id) }),
  }
}
