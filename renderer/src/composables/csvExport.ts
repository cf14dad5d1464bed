import { ElButton, ElMessage } from 'element-plus'
import { h, onScopeDispose, ref } from 'vue'
import type { CsvExportOp, ExportFormat } from '@contract/csv'
import { cancelRequest, newRequestId, on, request } from '@/bridge/bridge'
import { useAppStore } from '@/stores/app'
import { countOf, useConfirmStore } from '@/stores/confirm'

/** The list filters an export sends (search, sort, filters; no paging). */
export type ExportQuery = Record<string, string | number | boolean>

/** A scan's changes between two runs (both named, or the latest two), compared again in main. */
export interface ChangesExport {
  scanId: string
  from?: string
  to?: string
}

/**
 * What an "Export CSV…" is exporting, while browser mode asks where to save it: a list's CSV
 * export operation with its filters, or a scan's changes between runs.
 */
export type PendingExport = { noun: string; plural: string } & (
  | { op: CsvExportOp; query: ExportQuery; format?: ExportFormat; changes?: undefined }
  | { changes: ChangesExport; op?: undefined; format?: undefined }
)

/** How far a list export has read: records so far, of `total` when the service said. */
export interface ExportProgress {
  rows: number
  total: number | null
}

/**
 * "Export CSV…" (or JSON Lines) of a list for this window's account: main opens the save dialog
 * (Electron), or answers a suggested path that the user confirms or changes (browser mode:
 * `pending` and `path` drive the path dialog). A file already at a typed path is replaced only
 * after asking. While a list is read page by page, `progress` follows main's `csv.progress` events
 * for this export's request id and `stop` cancels it (nothing is saved). Once saved: a message
 * naming the file and the row count, with "Show in folder".
 */
export function useCsvExport() {
  const app = useAppStore()
  const confirm = useConfirmStore()
  const busy = ref(false)
  const pending = ref<PendingExport | null>(null)
  const path = ref('')
  const problem = ref<string | null>(null)
  const progress = ref<ExportProgress | null>(null)
  let running: string | null = null
  const off = on('csv.progress', (p) => {
    if (p.requestId === running) progress.value = { rows: p.rows, total: p.total }
  })
  onScopeDispose(() => {
    off()
    stop()
  })

  /** Cancels the export being read, if any (main answers CANCELLED; nothing is saved). */
  function stop(): void {
    if (running) cancelRequest(running)
  }

  async function run(what: PendingExport, typed?: string, replace = false): Promise<void> {
    const accountId = app.accountId
    if (!accountId) return
    busy.value = true
    problem.value = null
    const where = {
      ...(typed !== undefined ? { path: typed } : {}),
      ...(replace ? { replace } : {}),
    }
    const requestId = what.changes ? null : newRequestId()
    running = requestId
    progress.value = null
    const result = await (
      what.changes
        ? request('changes.exportCsv', { accountId, ...what.changes, ...where })
        : request('csv.export', {
            accountId,
            op: what.op,
            query: what.query,
            ...(what.format && what.format !== 'csv' ? { format: what.format } : {}),
            ...(requestId ? { requestId } : {}),
            ...where,
          })
    ).finally(() => {
      busy.value = false
      if (running === requestId) running = null
      progress.value = null
    })
    if (!result.ok) {
      if (result.error.code === 'CANCELLED') {
        ElMessage.info('The export was cancelled; nothing was saved.')
        return
      }
      if (result.error.code === 'CONFLICT' && typed !== undefined && !replace) {
        const ok = await confirm.ask({
          title: 'Replace the file?',
          message: `Replace ${typed}?`,
          detail: 'A file with this name is already there; it will be overwritten.',
          confirmLabel: 'Replace',
          danger: true,
          testId: 'csv-replace-confirm',
        })
        if (ok) await run(what, typed, true)
        return
      }
      if (pending.value) problem.value = result.error.message
      else ElMessage.error(result.error.message)
      return
    }
    const out = result.data
    if (!out.saved) {
      if (out.suggestedPath !== undefined) {
        pending.value = what
        path.value = out.suggestedPath
      }
      return
    }
    pending.value = null
    saved(out.path, countOf(out.rows, what.noun, what.plural), out.escapedCells)
  }

  function saved(file: string, rows: string, escaped: number): void {
    const note =
      escaped === 1
        ? ` 1 cell that looked like a formula now starts with ' so spreadsheets show it as text.`
        : escaped
          ? ` ${escaped} cells that looked like formulas now start with ' so spreadsheets show them as text.`
          : ''
    ElMessage({
      type: 'success',
      duration: 15_000,
      showClose: true,
      message: h('span', { 'data-testid': 'csv-saved' }, [
        `Saved ${rows} to ${file}.${note} `,
        h(
          ElButton,
          { link: true, type: 'primary', 'data-testid': 'csv-reveal', onClick: () => reveal(file) },
          () => 'Show in folder',
        ),
      ]),
    })
  }

  async function reveal(file: string): Promise<void> {
    const result = await request('csv.reveal', { path: file })
    if (!result.ok) ElMessage.error(result.error.message)
    else if (!result.data.revealed)
      ElMessage.warning(`ScanDesk could not open the folder of ${file}.`)
  }

  return {
    busy,
    pending,
    path,
    problem,
    progress,
    /** Stops the export being read (the list's pages); nothing is saved. */
    stop,
    /** Starts an export of the list with its current filters. */
    start: (what: PendingExport) => run(what),
    /** Browser mode: saves to the path the user confirmed. */
    saveTo: () => (pending.value ? run(pending.value, path.value.trim()) : Promise.resolve()),
    cancel: () => {
      stop()
      pending.value = null
      problem.value = null
    },
  }
}
