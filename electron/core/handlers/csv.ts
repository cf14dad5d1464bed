import type { CsvExports } from '../files/csv-export'
import type { HandlerContext } from './context'
import type { HandlerTable } from './dispatch'

/** The CSV module (papaparse with it), loaded at the first csv.* request, not at the start. */
export function loadCsvModule(): Promise<typeof import('../files/csv-export')> {
  return import('../files/csv-export')
}

/** The one CsvExports of the handler table, made when the CSV module is first needed. */
export type LazyCsvExports = () => Promise<CsvExports>

/**
 * The CsvExports shared by csv.* and the Changes view's export ("Show in folder" knows the files
 * of both), made at its first use; a failed load is tried again by the next request.
 */
export function csvExportsOf(ctx: HandlerContext): LazyCsvExports {
  let made: Promise<CsvExports> | null = null
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
      journal: ctx.exports.pending,
    })
  return () =>
    (made ??= loadCsvModule().then(
      ({ CsvExports }) => create(CsvExports),
      (err: unknown) => {
        made = null // the next request tries again
        throw err
      },
    ))
}

/**
 * csv.export / csv.reveal: the organizations and users lists saved as CSV where the user chooses
 * (Electron's save dialog, or a typed path in browser mode), and "Show in folder" for those files.
 * A list read page by page (vulnerabilities, the audit log) with a request id reports each page as
 * a `csv.progress` event and is stopped by `api.cancel` with that id.
 */
export function csvHandlers(
  ctx: HandlerContext,
  csv: LazyCsvExports,
): Pick<HandlerTable, 'csv.export' | 'csv.reveal'> {
  return {
    'csv.export': async ({ requestId, ...input }) => {
      ctx.accounts.row(input.accountId)
      const exports = await csv()
      if (!requestId) return exports.export(input)
      const signal = ctx.cancels.start(requestId)
      try {
        return await exports.export(input, {
          signal,
          onPage: (rows, total) => ctx.events.emit('csv.progress', { requestId, rows, total }),
        })
      } finally {
        ctx.cancels.finish(requestId, signal)
      }
    },
    'csv.reveal': async ({ path }) => (await csv()).reveal(path),
  }
}
