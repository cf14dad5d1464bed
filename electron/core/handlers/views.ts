import { ViewFiles } from '../files/views-file'
import type { HandlerContext } from './context'
import type { HandlerTable } from './dispatch'

/** views.export / views.import: an account's saved views as a JSON file the user chooses. */
export function viewsHandlers(
  ctx: HandlerContext,
): Pick<HandlerTable, 'views.export' | 'views.import'> {
  const files = new ViewFiles({
    mode: ctx.mode,
    host: ctx.host,
    folders: ctx.exports.folders,
    accountLabel: (accountId) => ctx.accounts.row(accountId).label,
    now: () => new Date(),
    journal: ctx.exports.pending,
  })
  return {
    'views.export': async (input) => {
      ctx.accounts.row(input.accountId)
      return files.export(input)
    },
    'views.import': async (input) => {
      ctx.accounts.row(input.accountId)
      return files.import(input)
    },
  }
}
