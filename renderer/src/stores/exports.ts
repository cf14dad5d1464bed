import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { AppError, Result } from '@contract/errors'
import type { DocumentFormat, DocumentKind, ExportJob, ExportState } from '@contract/files'
import { on, request } from '@/bridge/bridge'
import { useAppStore } from './app'
import { useAccountScope } from './scope'

/** States in which a job is still working (counted on the tray badge). */
export const ACTIVE_STATES: readonly ExportState[] = [
  'queued',
  'generating',
  'downloading',
  'verifying',
]

/**
 * A download, or other work that saves into the account's folder, waiting for the user to type a
 * folder (browser mode has no OS dialog): a job to download once it is saved, or (`purpose`) the
 * work that asked, told the folder (null when cancelled) through `resolve`.
 */
export interface FolderRequest {
  accountId: string
  jobId: string | null
  saveAs: boolean
  /** What the folder is needed for, said in the dialog ("The evidence of 11.3.2 is saved in it."). */
  purpose?: string
  resolve?: (folder: string | null) => void
}

/**
 * Export jobs of this window's account, kept current by `exports.changed`. Jobs of another
 * account never show: events for another account are ignored, switching accounts empties the
 * list at once and reloads it from main (which keeps every account's jobs), and a list or action
 * answer that arrives after a switch is dropped.
 */
export const useExportsStore = defineStore('exports', () => {
  const app = useAppStore()
  const jobs = ref<ExportJob[]>([])
  const error = ref<AppError | null>(null)
  const loading = ref(false)
  const trayOpen = ref(false)
  const folderRequest = ref<FolderRequest | null>(null)
  let loadSeq = 0

  const scope = useAccountScope(() => {
    jobs.value = []
    error.value = null
    loading.value = false
    folderRequest.value?.resolve?.(null)
    folderRequest.value = null
    loadSeq++
    void load()
  })
  /** The account whose jobs are shown (this window's account). */
  const accountId = computed(() => scope.accountId.value)

  const activeCount = computed(
    () => jobs.value.filter((j) => ACTIVE_STATES.includes(j.state)).length,
  )
  const attentionCount = computed(
    () => jobs.value.filter((j) => j.state === 'ready' || j.state === 'mismatch').length,
  )
  const sorted = computed(() =>
    [...jobs.value].sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
  )

  /** The newest job for one document, for the per-row state in the reports tables. */
  function latestFor(kind: DocumentKind, resourceId: string): ExportJob | null {
    return sorted.value.find((j) => j.kind === kind && j.resourceId === resourceId) ?? null
  }

  function upsert(job: ExportJob): void {
    if (job.accountId !== accountId.value) return // late event for another account
    const i = jobs.value.findIndex((j) => j.id === job.id)
    if (i === -1) jobs.value = [...jobs.value, job]
    else if (jobs.value[i].updatedAt <= job.updatedAt) jobs.value.splice(i, 1, job)
  }

  /** Loads the account's jobs; an answer for an account no longer this window's is dropped. */
  async function load(): Promise<void> {
    const ticket = scope.begin()
    if (!ticket) {
      jobs.value = []
      return
    }
    const id = ticket.accountId
    const seq = ++loadSeq
    loading.value = true
    const result = await request('exports.list', { accountId: id })
    if (seq !== loadSeq || !scope.isCurrent(ticket)) return
    loading.value = false
    if (result.ok) {
      // Keep events that arrived while the list was on its way when they are newer.
      const byId = new Map(jobs.value.map((j) => [j.id, j]))
      jobs.value = result.data
        .filter((j) => j.accountId === id)
        .map((j) => {
          const seen = byId.get(j.id)
          return seen && seen.updatedAt > j.updatedAt ? seen : j
        })
      error.value = null
    } else error.value = result.error
  }

  // Waits for an action's answer; one that arrives after a switch changes nothing here (a job
  // of another account is also refused by upsert).
  async function after(
    pending: Promise<Result<ExportJob>>,
    ticket = scope.begin(),
  ): Promise<Result<ExportJob>> {
    const result = await pending
    if (!ticket || !scope.isCurrent(ticket)) return result
    if (result.ok) upsert(result.data)
    else error.value = result.error
    return result
  }

  /** Asks main to generate a document file; the new job shows in the tray. */
  async function generate(
    kind: DocumentKind,
    resourceId: string,
    format: DocumentFormat,
  ): Promise<Result<ExportJob>> {
    const id = scope.accountId.value
    if (!id)
      return { ok: false, error: { code: 'UNKNOWN_ACCOUNT', message: 'No account is active.' } }
    return after(request('exports.generate', { accountId: id, kind, resourceId, format }))
  }

  /** Cancels a job (generation polling or a running download). */
  async function cancel(jobId: string): Promise<Result<ExportJob>> {
    return after(request('exports.cancel', { jobId }))
  }

  /** Starts a failed, cancelled or mismatched job again (one click). */
  async function retry(jobId: string): Promise<Result<ExportJob>> {
    return after(request('exports.retry', { jobId }))
  }

  /** Removes a finished job from the tray. */
  async function dismiss(jobId: string): Promise<Result<{ dismissed: true }>> {
    const ticket = scope.begin()
    const result = await request('exports.dismiss', { jobId })
    if (!ticket || !scope.isCurrent(ticket)) return result
    if (result.ok) jobs.value = jobs.value.filter((j) => j.id !== jobId)
    else error.value = result.error
    return result
  }

  const isBrowser = () => app.mode === 'browser'

  /**
   * Downloads a ready job. Without a folder for the account, Electron asks main to open the OS
   * folder dialog; browser mode opens the folder dialog of the tray (`folderRequest`) and the
   * download continues from `saveFolder`.
   */
  async function download(jobId: string, saveAs = false): Promise<Result<ExportJob> | null> {
    const ticket = scope.begin()
    const job = jobs.value.find((j) => j.id === jobId)
    const id = job?.accountId ?? scope.accountId.value
    if (!id) return null
    if (!saveAs || isBrowser()) {
      const folder = await request('files.getFolder', { accountId: id })
      if (folder.ok && !folder.data.folder) return needFolder(id, jobId, saveAs)
    }
    const result = await request('exports.download', { jobId, ...(saveAs ? { saveAs } : {}) })
    if (!result.ok && result.error.code === 'NO_FOLDER') return needFolder(id, jobId, saveAs)
    return after(Promise.resolve(result), ticket)
  }

  async function needFolder(
    id: string,
    jobId: string,
    saveAs: boolean,
  ): Promise<Result<ExportJob> | null> {
    if (isBrowser()) {
      if (id === scope.accountId.value) folderRequest.value = { accountId: id, jobId, saveAs }
      return null
    }
    const chosen = await request('files.setFolder', { accountId: id })
    if (!chosen.ok) {
      if (id === scope.accountId.value) error.value = chosen.error
      return chosen
    }
    if (!chosen.data.folder) return null // the user closed the dialog
    return after(request('exports.download', { jobId }))
  }

  /** Saves the folder typed in browser mode and continues the work that needed it. */
  async function saveFolder(folder: string): Promise<Result<{ folder: string | null }>> {
    const pending = folderRequest.value
    if (!pending) return { ok: false, error: { code: 'INTERNAL', message: 'Nothing to save.' } }
    const result = await request('files.setFolder', { accountId: pending.accountId, folder })
    if (!result.ok) return result
    folderRequest.value = null
    pending.resolve?.(result.data.folder)
    if (pending.jobId) await after(request('exports.download', { jobId: pending.jobId }))
    return result
  }

  function cancelFolder(): void {
    folderRequest.value?.resolve?.(null)
    folderRequest.value = null
  }

  /**
   * The account's download folder for work that saves into it (evidence, an audit folder): the one
   * set, or — asked in place before any work starts (issue 36) — one chosen now: the OS dialog in
   * Electron, the folder dialog in browser mode, saying `purpose`. Null when none was chosen.
   */
  async function ensureFolder(purpose: string): Promise<Result<{ folder: string | null }>> {
    const id = scope.accountId.value
    if (!id)
      return { ok: false, error: { code: 'UNKNOWN_ACCOUNT', message: 'No account is active.' } }
    const current = await request('files.getFolder', { accountId: id })
    if (!current.ok || current.data.folder) return current
    if (!isBrowser()) return request('files.setFolder', { accountId: id })
    folderRequest.value?.resolve?.(null)
    const folder = await new Promise<string | null>((resolve) => {
      folderRequest.value = { accountId: id, jobId: null, saveAs: false, purpose, resolve }
    })
    return { ok: true, data: { folder } }
  }

  on('exports.changed', upsert)
  void load()

  return {
    accountId,
    jobs,
    sorted,
    error,
    loading,
    trayOpen,
    folderRequest,
    activeCount,
    attentionCount,
    latestFor,
    load,
    generate,
    cancel,
    retry,
    dismiss,
    download,
    saveFolder,
    cancelFolder,
    ensureFolder,
  }
})
