import type { SinceService } from '../since/service'
import type { HandlerContext } from './context'
import type { HandlerTable } from './dispatch'

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
