import { watch } from 'vue'
import type { AppError, Result } from '@contract/errors'
import type { AuditBundle, ExportJob, LedgerEntry } from '@contract/files'
import { request } from '@/bridge/bridge'
import { useAppStore } from '@/stores/app'
import { useExportsStore } from '@/stores/exports'
import { saqDraft, type SaqDraft } from '@/composables/saqDraft'

/** A stored SAQ draft with what the list shows of it. */
export interface SavedSaqDraft {
  key: string
  savedAt: string
  draft: SaqDraft
}

const NO_ACCOUNT: AppError = { code: 'UNKNOWN_ACCOUNT', message: 'No account is active.' }

/** The SAQ and requirement a piece of evidence is for. */
export interface EvidenceFor {
  saqKey: string
  saqName: string
  saqType: string
  saqStatus?: 'draft' | 'approved'
  requirement: string
}

/** What to tell of an SAQ PDF's download once it has ended (null: nothing, it was cancelled). */
export function pdfOutcome(
  result: Result<ExportJob>,
): { type: 'success' | 'info' | 'error'; text: string } | null {
  if (!result.ok) return { type: 'error', text: result.error.message }
  const job = result.data
  if (job.state === 'failed' || job.state === 'mismatch')
    return { type: 'error', text: job.error?.message ?? 'The download failed.' }
  if (job.state === 'verified')
    return { type: 'success', text: `Saved ${job.path ?? 'the PDF'}; its SHA-256 is recorded.` }
  if (job.state === 'ready')
    return {
      type: 'info',
      text: 'The PDF is ready; it is saved once a download folder is chosen (see the exports tray).',
    }
  return null
}

/**
 * What the SAQ screens ask of main besides the service's operations: the drafts on this
 * computer, evidence files, the PDF download (the reports' downloader, kind 'saq') and the audit
 * bundle. Every call is for this window's account.
 */
export function useSaqFiles() {
  const app = useAppStore()
  const exportsStore = useExportsStore()

  function withAccount<T>(run: (accountId: string) => Promise<Result<T>>): Promise<Result<T>> {
    const accountId = app.accountId
    return accountId ? run(accountId) : Promise.resolve({ ok: false, error: NO_ACCOUNT })
  }

  /** Every SAQ draft of the account that this version can read, newest first. */
  function listDrafts(): Promise<Result<SavedSaqDraft[]>> {
    return withAccount(async (accountId) => {
      const list = await request('drafts.list', { accountId, kind: 'saq' })
      if (!list.ok) return list
      const out: SavedSaqDraft[] = []
      for (const item of list.data) {
        const one = await request('drafts.get', { accountId, kind: 'saq', key: item.key })
        if (!one.ok) return one
        const parsed = one.data ? saqDraft.safeParse(one.data.data) : null
        if (parsed?.success) out.push({ key: item.key, savedAt: item.savedAt, draft: parsed.data })
      }
      return { ok: true, data: out.sort((a, b) => b.savedAt.localeCompare(a.savedAt)) }
    })
  }

  /** Stores a whole draft under `key` (a new one, or one moved to its service id). */
  function saveDraft(key: string, draft: SaqDraft): Promise<Result<{ savedAt: string }>> {
    return withAccount((accountId) =>
      request('drafts.save', { accountId, kind: 'saq', key, data: draft }),
    )
  }

  /** Forgets a draft. */
  function deleteDraft(key: string): Promise<Result<{ deleted: boolean }>> {
    return withAccount((accountId) => request('drafts.delete', { accountId, kind: 'saq', key }))
  }

  /**
   * The account's download folder, asked for in place when there is none (issue 36): true once
   * there is one, false when the user chose none; a failure to read or save it as its error.
   */
  async function ensureFolder(purpose: string): Promise<Result<boolean>> {
    const answer = await exportsStore.ensureFolder(purpose)
    return answer.ok ? { ok: true, data: !!answer.data.folder } : answer
  }

  /** Attaches a local evidence file to a requirement (null: the file dialog was cancelled). */
  function attachEvidence(req: {
    saqKey: string
    saqName: string
    saqType: string
    requirement: string
    path?: string
  }): Promise<Result<LedgerEntry | null>> {
    return withAccount((accountId) => request('saq.evidence.attach', { accountId, ...req }))
  }

  /** A report's PDF, downloaded and verified with the service, as a PCI requirement's evidence. */
  function attachReport(req: EvidenceFor & { reportId: string }): Promise<Result<LedgerEntry>> {
    return withAccount((accountId) => request('saq.evidence.attachReport', { accountId, ...req }))
  }

  /** The findings behind a PCI requirement, as CSV, as its evidence. */
  function attachFindings(req: EvidenceFor): Promise<Result<LedgerEntry>> {
    return withAccount((accountId) => request('saq.evidence.attachFindings', { accountId, ...req }))
  }

  /** The evidence files of one SAQ (by its id, or its draft key before it was submitted). */
  function listEvidence(saqKey: string): Promise<Result<LedgerEntry[]>> {
    return withAccount((accountId) => request('saq.evidence.list', { accountId, saqKey }))
  }

  /** Removes ScanDesk's copy of an evidence file (the original is never touched). */
  function removeEvidence(entryId: string): Promise<Result<{ removed: true }>> {
    return request('saq.evidence.remove', { entryId })
  }

  /** Moves a submitted draft's evidence to the SAQ's id. */
  function linkEvidence(draftKey: string, saqId: string): Promise<Result<{ linked: number }>> {
    return withAccount((accountId) => request('saq.evidence.link', { accountId, draftKey, saqId }))
  }

  /**
   * Approved SAQs, their PDFs and evidence in one folder with a manifest; with `auditEvents`, each
   * SAQ's audit events from its creation to its approval too.
   */
  function auditBundle(saqIds: string[], auditEvents = false): Promise<Result<AuditBundle>> {
    return withAccount((accountId) =>
      request('saq.auditBundle', { accountId, saqIds, ...(auditEvents ? { auditEvents } : {}) }),
    )
  }

  /**
   * Downloads an SAQ's PDF through the reports' downloader (one job in the exports tray): the job
   * is asked for, downloaded into the account's SAQ folder as soon as it is ready, and answered
   * once it has ended (saved and recorded, failed, cancelled), so the screen says what happened
   * rather than that it is on its way (issue 36). A download that waits for a folder answers the
   * job as it stands.
   */
  async function downloadPdf(saqId: string): Promise<Result<ExportJob>> {
    const started = await exportsStore.generate('saq', saqId, 'pdf')
    if (!started.ok) return started
    const jobId = started.data.id
    const current = () => exportsStore.jobs.find((j) => j.id === jobId) ?? started.data
    const until = (busy: (job: ExportJob) => boolean) =>
      busy(current())
        ? new Promise<ExportJob>((resolve) => {
            const stop = watch(current, (job) => {
              if (busy(job)) return
              stop()
              resolve(job)
            })
          })
        : Promise.resolve(current())
    const ready = await until((job) => job.state === 'generating' || job.state === 'queued')
    if (ready.state !== 'ready') return { ok: true, data: ready }
    const result = await exportsStore.download(jobId)
    if (!result?.ok) return result ?? { ok: true, data: ready }
    const done = await until((job) => job.state === 'downloading' || job.state === 'verifying')
    return { ok: true, data: done }
  }

  return {
    ensureFolder,
    listDrafts,
    saveDraft,
    deleteDraft,
    attachEvidence,
    attachReport,
    attachFindings,
    listEvidence,
    removeEvidence,
    linkEvidence,
    auditBundle,
    downloadPdf,
  }
}
