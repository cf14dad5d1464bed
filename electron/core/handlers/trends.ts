import type { DailyTotals } from '../trends/daily'
import type { HandlerContext } from './context'
import type { HandlerTable } from './dispatch'

/** Days the dashboard's trend covers when the renderer names none. */
const DEFAULT_DAYS = 90

/** trends.daily: the account's daily totals recorded on this computer. */
export function trendsHandlers(
  daily: DailyTotals,
  ctx: Pick<HandlerContext, 'accounts'>,
): Pick<HandlerTable, 'trends.daily'> {
  return {
    'trends.daily': async ({ accountId, days }) => {
      ctx.accounts.row(accountId)
      return daily.daily(accountId, days ?? DEFAULT_DAYS)
    },
  }
}
