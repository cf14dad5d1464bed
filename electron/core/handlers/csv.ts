import { CsvExports } from '../files/csv-export'
import type { HandlerContext } from './context'
import type { HandlerTable } from './dispatch'

/**
 * csv.export / csv.reveal: the organizations and users lists saved as CSV where the user chooses
 * (Electron's save dialog, or a typed path in browser mode), and "Show in folder" for those files.
 */
export function csvExportsOf(ctx: HandlerContext): CsvExports {
  return new CsvExports({
    mode: ctx.mode,
    host: ctx.host,
    folders: ctx.exports.folders,
    async clientFor(accountId) {
      let row = ctx.accounts.row(accountId)
      if (ctx.demo.needsStart(row)) {
        await ctx.demo.ensureFor(row)
        row = ctx.accounts.row(accountId)
      }
      return ctx.clients.client(row)
    },
    accountLabel: (accountId) => ctx.accounts.row(accountId).label,
    now: () => new Date(),
  })
}

/** The handlers over one CsvExports (shared with the Changes view's export: "Show in folder"). */
export function csvHandlers(
  ctx: HandlerContext,
  exports: CsvExports,
): Pick<HandlerTable, 'csv.export' | 'csv.reveal'> {
  return {
    'csv.export': async (input) => {
      ctx.accounts.row(input.accountId)
      return exports.export(input)
    },
    'csv.reveal': async ({ path }) => exports.reveal(path),
  }
}
