import type { SinceService } from '../since/service'
import type { HandlerContext } from './context'
import type { HandlerTable } from './dispatch'

/** since.counts / since.left / since.reviewed: the dashboard's "Since your last visit". */
export function sinceHandlers(
  since: SinceService,
  ctx: Pick<HandlerContext, 'accounts'>,
): Pick<HandlerTable, 'since.counts' | 'since.left' | 'since.reviewed'> {
  return {
    'since.counts': async ({ accountId }) => {
      ctx.accounts.row(accountId)
      return since.counts(accountId)
    },
    'since.left': async ({ accountId, until }) => {
      ctx.accounts.row(accountId)
      return since.left(accountId, until)
    },
    'since.reviewed': async ({ accountId, until }) => {
      ctx.accounts.row(accountId)
      return since.reviewed(accountId, until)
    },
  }
}
