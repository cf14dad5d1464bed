import path from 'node:path'
import {
  JSONL_EXPORT_OPS,
  formatCsv,
  type CsvExportOp,
  type CsvExportOutcome,
  type ExportFormat,
} from '@contract/csv'
import { AppFailure, fail } from '@contract/errors'
import type { DownloadFolders, HostMode } from '../exports/folders'
import type { HostServices } from '../host'
import type { AccountClient } from '../http/client'
import { escapeCsvAnswer } from './csv-text'
import { writeAtomically } from './atomic-write'
import { formatBytes } from './download'
import type { FileOps } from './fs-ops'
import type { TempJournal } from './pending-temps'
import { isListCsv, listCsv, listJsonLines, type ListReadOptions } from './list-csv'
import { safeFileName } from './names'
import { chooseSaveTarget, type SaveTarget } from './save-target'

/** The largest CSV export ScanDesk takes: it is held in memory to be checked and escaped. */
export const MAX_CSV_EXPORT_BYTES = 64 * 1024 ** 2

/** What the default file name calls each export. */
const TITLES: Record<CsvExportOp, string> = {
  'organizations.export': 'Organizations',
  'users.export': 'Users',
  'vulnerabilities.list': 'Vulnerabilities',
  'audit.list': 'Audit log',
}

/** The file name extension of each format. */
const EXTENSIONS: Record<ExportFormat, string> = { csv: '.csv', jsonl: '.jsonl' }

/** One "Export CSV…" as the handler hands it over (already checked against the channel schema). */
export interface CsvExportRequest {
  accountId: string
  op: CsvExportOp
  query?: Record<string, string | number | boolean>
  /** Browser mode: the typed file. */
  path?: string
  /** Browser mode: replace a file already there. */
  replace?: boolean
  /** CSV (default) or JSON Lines (the lists in JSONL_EXPORT_OPS). */
  format?: ExportFormat
}

/** How a list export runs: cancelled with `signal`, told the records read after each page. */
export type ExportRun = ListReadOptions

/** What CSV exports need from the core. */
export interface CsvExportDeps {
  mode: HostMode
  host: HostServices
  folders: DownloadFolders
  clientFor(accountId: string): Promise<AccountClient>
  accountLabel(accountId: string): string
  now(): Date
  /** The file system layer (tests inject failures); default the real one. */
  fileOps?: FileOps
  maxBytes?: number
  /** Notes each temp file while it is written (the next start removes one a crash left). */
  journal?: TempJournal
}

/**
 * CSV exports of the organizations and users lists, saved where the user chooses: the save dialog
 * (Electron) or a typed path inside the user's folders (browser mode); the answer checked to be
 * CSV, formula-looking cells escaped, then written atomically (temp file beside the target, fsync,
 * rename). Lists the service answers as JSON (vulnerabilities, the audit log) are read page by
 * page and written by ScanDesk, the audit log also as JSON Lines. Remembers what it saved this
 * run, the only files "Show in folder" may reveal.
 */
export class CsvExports {
  private readonly saved = new Set<string>()

  constructor(private readonly deps: CsvExportDeps) {}

  /** `Organizations - <account label> - <YYYY-MM-DD>.csv` (`.jsonl`), safe for every OS. */
  defaultName(op: CsvExportOp, accountId: string, format: ExportFormat = 'csv'): string {
    return this.nameFor(TITLES[op], accountId, format)
  }

  private nameFor(title: string, accountId: string, format: ExportFormat = 'csv'): string {
    const date = this.deps.now().toISOString().slice(0, 10)
    const label = this.deps.accountLabel(accountId)
    return safeFileName(`${title} - ${label} - ${date}${EXTENSIONS[format]}`)
  }

  /**
   * Saves rows ScanDesk made itself (a scan's changes between runs) the same way: where the user
   * chooses, formula-looking cells escaped, every field quoted, written atomically. `title` names
   * the file; the first row is the header.
   */
  async exportRows(
    req: Omit<CsvExportRequest, 'op' | 'query'> & { title: string },
    rows: readonly (readonly string[])[],
  ): Promise<CsvExportOutcome> {
    const chosen = await this.choose(req, this.nameFor(req.title, req.accountId))
    if ('outcome' in chosen) return chosen.outcome
    const csv = formatCsv(rows)
    return this.write(req.accountId, chosen, {
      text: csv.text,
      rows: rows.length - 1,
      escapedCells: csv.escapedCells,
    })
  }

  /**
   * Exports `op` with the list's query. Electron: the save dialog (cancelled → not saved); the
   * dialog asked before replacing a file. Browser mode: without a path, answers the suggested one;
   * with a path (inside the user's folders), a file already there is replaced only with `replace`.
   * A list ScanDesk reads itself reports each page to `run.onPage` and stops at `run.signal`
   * (CANCELLED, nothing written); JSON Lines is for the lists in JSONL_EXPORT_OPS only.
   */
  async export(req: CsvExportRequest, run: ExportRun = {}): Promise<CsvExportOutcome> {
    const format = req.format ?? 'csv'
    if (format === 'jsonl' && !JSONL_EXPORT_OPS.includes(req.op))
      fail('VALIDATION', `The ${TITLES[req.op].toLowerCase()} are saved as CSV only.`)
    const chosen = await this.choose(req, this.defaultName(req.op, req.accountId, format), format)
    if ('outcome' in chosen) return chosen.outcome
    const list = isListCsv(req.op) ? req.op : null
    let file: { text: string; rows: number; escapedCells: number }
    if (!list)
      file = await this.fetch(req, run.signal).then((a) => escapeCsvAnswer(a.bytes, a.contentType))
    else {
      const client = await this.deps.clientFor(req.accountId)
      const write = format === 'jsonl' ? listJsonLines : listCsv
      file = await write(client, list, req.query, run)
    }
    if (run.signal?.aborted) fail('CANCELLED', 'The export was cancelled; nothing was saved.')
    return this.write(req.accountId, chosen, file, format)
  }

  /** Where to save: the dialog's choice or the typed path (checked), or why nothing is saved. */
  private async choose(
    req: { accountId: string; path?: string; replace?: boolean },
    name: string,
    format: ExportFormat = 'csv',
  ): Promise<{ outcome: CsvExportOutcome } | SaveTarget> {
    const chosen = await chooseSaveTarget(this.deps, req, name, EXTENSIONS[format])
    return 'target' in chosen ? chosen : { outcome: chosen }
  }

  /** Writes the checked text atomically and remembers the file for "Show in folder". */
  private async write(
    accountId: string,
    { folder, target, replace }: SaveTarget,
    csv: { text: string; rows: number; escapedCells: number },
    format: ExportFormat = 'csv',
  ): Promise<CsvExportOutcome> {
    const { deps } = this
    await writeAtomically(folder, path.basename(target), csv.text, {
      place: replace ? 'replace' : 'new',
      doing: format === 'csv' ? 'save the CSV file' : 'save the JSON Lines file',
      taken: (file) =>
        new AppFailure({
          code: 'CONFLICT',
          message: `A file appeared at ${file} meanwhile; it was kept. Export again to replace it.`,
        }),
      ops: deps.fileOps,
      confined: true,
      journal: deps.journal,
    })
    this.saved.add(target)
    return { saved: true, path: target, rows: csv.rows, escapedCells: csv.escapedCells }
  }

  /** Shows a CSV (JSON Lines) file this run saved in its folder; any other path is refused. */
  async reveal(file: string): Promise<{ revealed: boolean }> {
    if (!this.saved.has(file))
      fail('FORBIDDEN', 'ScanDesk shows only the export files it saved since it started.')
    return { revealed: await this.deps.host.revealPath(file) }
  }

  /** The export's bytes in memory (at most maxBytes) and its content type. */
  private async fetch(
    req: CsvExportRequest,
    signal?: AbortSignal,
  ): Promise<{ bytes: Buffer; contentType: string | null }> {
    const max = this.deps.maxBytes ?? MAX_CSV_EXPORT_BYTES
    const tooLarge = () =>
      new AppFailure({
        code: 'TOO_LARGE',
        message: `The export is larger than ${formatBytes(max)}, more than ScanDesk checks in one go; nothing was saved. Narrow the list with its filters and export again.`,
      })
    const client = await this.deps.clientFor(req.accountId)
    const chunks: Buffer[] = []
    let size = 0
    let contentType: string | null = null
    await client.download(
      req.op,
      req.query ? { query: req.query } : {},
      {
        start(head) {
          contentType = head.contentType
          if (head.contentLength !== null && head.contentLength > max) throw tooLarge()
        },
        write(chunk) {
          size += chunk.length
          if (size > max) throw tooLarge()
          chunks.push(chunk)
        },
      },
      signal ? { signal } : {},
    )
    return { bytes: Buffer.concat(chunks, size), contentType }
  }
}
