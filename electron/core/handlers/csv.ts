import type { CsvExports } from '../files/csv-export'
import type { HandlerContext } from './context'
import type { HandlerTable } from './dispatch'

/** The CSV module (papaparse with it), loaded at the first csv.* request, not at the start. */
export function loadCsvModule(): Promise<typeof import('../files/csv-export')> {
  return import('../files/csv-export')
}

/**
 * csv.export / csv.reveal: the organizations and users lists saved as CSV where the user chooses
 * (Electron's save dialog, or a typed path in browser mode), and "Show in folder" for those files.
 */
export function csvHandlers(ctx: HandlerContext): Pick<HandlerTable, 'csv.export' | 'csv.reveal'> {
  let made: Promise<CsvExports> | null = null
  const csv = () =>
    (made ??= loadCsvModule().then(
      ({ CsvExports }) => create(CsvExports),
      (err: unknown) => {
        made = null // the next request tries again
        throw err
      },
    ))
  const create = (Exports: typeof CsvExports) =>
    new Exports({
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
  return {
    'csv.export': async (input) => {
      ctx.accounts.row(input.accountId)
      return (await csv()).export(input)
    },
    'csv.reveal': async ({ path }) => (await csv()).reveal(path),
  }
}
