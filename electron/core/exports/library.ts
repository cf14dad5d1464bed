import { AppFailure, fail } from '@contract/errors'
import type { DocumentFormat, DocumentKind, FileCheck, LedgerEntry } from '@contract/files'
import type { HostServices } from '../host'
import type { AccountClient } from '../http/client'
import type { LedgerRepo } from '../store/ledger-repo'
import type { FileOps } from './file-ops'
import {
  EVIDENCE_OPEN_EXTENSIONS,
  refuseRendererPath,
  type DownloadFolders,
  type HostMode,
} from './folders'
import { openJudged } from '../files/confined'
import { shortHash } from './outcomes'
import { documentName, isGenerated, verifyWithService } from './service'

/** What the library needs. */
export interface LibraryDeps {
  ledger: LedgerRepo
  folders: DownloadFolders
  files: Pick<FileOps, 'hashFile'>
  host: HostServices
  clientFor: (accountId: string) => Promise<AccountClient>
  libraryChanged: (accountId: string) => void
  now: () => Date
}

/** What "Verify a file…" checks a file against. */
export interface VerifyFileRequest {
  accountId: string
  kind: DocumentKind
  resourceId: string
  format: DocumentFormat
  path?: string
}

const FORMAT = { pdf: 'PDF', csv: 'CSV', file: 'file' } as const

/** SAQ PDFs and evidence: the service has no hash check; re-verification compares with the record. */
function recordedOnly(entry: LedgerEntry): boolean {
  return entry.kind === 'saq' || entry.kind === 'saq_evidence'
}

/** "downloaded" or "attached" (evidence), for messages. */
function arrival(entry: LedgerEntry): string {
  return entry.kind === 'saq_evidence' ? 'attached' : 'downloaded'
}

const NO_SERVICE_CHECK =
  'The service offers no check for SAQ files, so it was compared with the SHA-256 recorded when it arrived.'

async function hashOrNull(
  files: LibraryDeps['files'],
  file: string,
): Promise<{ sha256: string; size: number } | null> {
  try {
    return await files.hashFile(file)
  } catch (err) {
    if (err instanceof AppFailure && err.error.code === 'FILE_NOT_FOUND') return null
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
}

/** The file ledger as a library: list, re-verify (offline and online), open, reveal, verify a file. */
export class Library {
  constructor(private readonly deps: LibraryDeps) {}

  /** Entries, newest first, of one account or all, matching `search`. */
  list(filter: { accountId?: string; search?: string }): LedgerEntry[] {
    return this.deps.ledger.list(filter)
  }

  /**
   * Re-verifies an entry. Offline: the file's hash against the recorded one (same → verified, or
   * recorded for SAQ files; different → changed; gone → missing). Online: the service is asked
   * about the file's hash — except for SAQ PDFs and evidence, which the service cannot check: they
   * get the offline comparison, and the detail says so (no service call).
   */
  async reverify(entryId: string, mode: 'offline' | 'online'): Promise<LedgerEntry> {
    const entry = this.entry(entryId)
    if (!entry.sha256)
      fail('FILE_NOT_FOUND', 'This download failed, so there is no file to verify.')
    const now = this.deps.now().toISOString()
    const actual = await hashOrNull(this.deps.files, entry.path)
    let patch: Pick<LedgerEntry, 'verdict' | 'detail'>
    const kind = entry.kind
    if (!actual) {
      patch = { verdict: 'missing', detail: `The file is no longer at ${entry.path}.` }
    } else if (mode === 'offline' || kind === 'saq' || kind === 'saq_evidence') {
      patch = this.compareWithRecord(entry, actual.sha256)
      if (mode === 'online') patch = { ...patch, detail: `${patch.detail} ${NO_SERVICE_CHECK}` }
    } else {
      const client = await this.deps.clientFor(entry.accountId)
      const format = entry.format === 'file' ? 'pdf' : entry.format
      const verdict = await verifyWithService(client, kind, entry.resourceId, format, actual.sha256)
      if (verdict.match)
        patch = {
          verdict: 'verified',
          detail: `The service confirmed this file (SHA-256 ${shortHash(actual.sha256)}…).`,
        }
      else if (actual.sha256 !== entry.sha256)
        patch = {
          verdict: 'changed',
          detail: `The file changed on disk since it was downloaded and the service does not recognise it.`,
        }
      else
        patch = {
          verdict: 'mismatch',
          detail: `The service does not recognise this file: its ${FORMAT[entry.format]} has a different SHA-256 now (it may have been generated again).`,
        }
    }
    const updated = this.deps.ledger.update(entryId, { ...patch, verifiedAt: now })!
    this.deps.libraryChanged(entry.accountId)
    return updated
  }

  /** The offline verdict: the file's digest against the one recorded when it arrived. */
  private compareWithRecord(
    entry: LedgerEntry,
    sha256: string,
  ): Pick<LedgerEntry, 'verdict' | 'detail'> {
    if (sha256 !== entry.sha256)
      return {
        verdict: 'changed',
        detail: `The file changed on disk since it was ${arrival(entry)}: its SHA-256 is now ${shortHash(sha256)}…, it was ${shortHash(entry.sha256)}….`,
      }
    if (entry.verdict === 'mismatch') return { verdict: 'mismatch', detail: entry.detail }
    return {
      verdict: recordedOnly(entry) ? 'recorded' : 'verified',
      detail: `Unchanged since it was ${arrival(entry)} (SHA-256 ${shortHash(sha256)}…).`,
    }
  }

  /**
   * Opens an entry's file with the OS: only files inside the account's folders, only document
   * types (reports: PDF and CSV; evidence: documents and images, EVIDENCE_OPEN_EXTENSIONS), and
   * only while its SHA-256 is still the one recorded when it arrived (hashed again at every open).
   */
  async open(entryId: string): Promise<{ opened: boolean }> {
    const entry = this.entry(entryId)
    const types = entry.kind === 'saq_evidence' ? EVIDENCE_OPEN_EXTENSIONS : undefined
    const file = await this.deps.folders.openable(entry.accountId, entry.path, types)
    await this.refuseChanged(entry, file)
    return { opened: await this.deps.host.openPath(file) }
  }

  /**
   * INTEGRITY_FAILED, and the entry marked "changed", when the file about to be opened is not
   * the one recorded (replaced or altered since it arrived): the OS would open whatever is there.
   */
  private async refuseChanged(entry: LedgerEntry, file: string): Promise<void> {
    if (!entry.sha256) fail('FILE_NOT_FOUND', 'This download failed, so there is no file to open.')
    const actual = await hashOrNull(this.deps.files, file)
    if (!actual) fail('FILE_NOT_FOUND', `The file is no longer at ${entry.path}.`)
    if (actual.sha256 === entry.sha256) return
    const changed = this.compareWithRecord(entry, actual.sha256)
    this.deps.ledger.update(entry.id, { ...changed, verifiedAt: this.deps.now().toISOString() })
    this.deps.libraryChanged(entry.accountId)
    fail(
      'INTEGRITY_FAILED',
      `ScanDesk did not open ${entry.path}: ${changed.detail} Download it again, or re-verify it to see what the service says of it.`,
    )
  }

  /** Shows an entry's file in its folder (same rules as open; evidence of any type). */
  async reveal(entryId: string): Promise<{ revealed: boolean }> {
    const entry = this.entry(entryId)
    const types = entry.kind === 'saq_evidence' ? 'any' : undefined
    const file = await this.deps.folders.openable(entry.accountId, entry.path, types)
    return { revealed: await this.deps.host.revealPath(file) }
  }

  /**
   * "Verify a file…": hashes a file and asks the service about a report. Electron: the file comes
   * only from the OS file dialog main opens (a path from the renderer is FORBIDDEN); browser mode:
   * the typed path, inside the user's home, the temp folder or the account's download folders
   * (DownloadFolders.checkTyped), else the host's picker (none in browser mode: null).
   */
  async verifyFile(req: VerifyFileRequest, mode: HostMode): Promise<FileCheck | null> {
    refuseRendererPath(mode, req.path, 'file', 'file to verify')
    const { folders } = this.deps
    let file: string | null
    let real: string
    if (req.path !== undefined) {
      file = req.path
      real = await folders.checkTyped(req.accountId, file, 'file to verify')
    } else {
      file = await this.deps.host.pickFile('Choose a file to verify')
      if (!file) return null
      real = await folders.checkPicked(file, 'file to verify')
    }
    // Hashed from the file opened where it was judged to be, never from the path again.
    const { handle } = await openJudged(real, file)
    const actual = await this.deps.files
      .hashFile(real, handle)
      .finally(() => handle.close().catch(() => undefined))
    const kind = req.kind
    if (!isGenerated(kind)) return this.checkAgainstRecord(req, file, actual)
    const client = await this.deps.clientFor(req.accountId)
    const name = await documentName(client, kind, req.resourceId)
    const verdict = await verifyWithService(client, kind, req.resourceId, req.format, actual.sha256)
    const what = `the ${FORMAT[req.format]} of “${name}”`
    return {
      path: file,
      size: actual.size,
      sha256: actual.sha256,
      match: verdict.match,
      message: verdict.match
        ? `This file is exactly ${what} as the service produced it (SHA-256 ${shortHash(actual.sha256)}…).`
        : `This file is not ${what}: its SHA-256 (${shortHash(actual.sha256)}…) ${verdict.expected ? `differs from the service’s (${shortHash(verdict.expected)}…)` : 'was not confirmed by the service'}.`,
    }
  }

  /**
   * "Verify a file…" for an SAQ's PDF: the service has no check, so the file is compared with the
   * PDFs of that SAQ recorded in the ledger (the latest first); none recorded → FILE_NOT_FOUND.
   */
  private checkAgainstRecord(
    req: VerifyFileRequest,
    file: string,
    actual: { sha256: string; size: number },
  ): FileCheck {
    const recorded = this.deps.ledger
      .listFor(req.accountId, 'saq', req.resourceId)
      .filter((e) => e.sha256 !== '')
      .reverse()
    const latest = recorded[0]
    if (!latest)
      fail(
        'FILE_NOT_FOUND',
        `ScanDesk has no recorded download of the PDF of SAQ ${req.resourceId}, so there is nothing to compare this file with (the service offers no check for SAQ files). Download the SAQ’s PDF first.`,
      )
    const same = recorded.find((e) => e.sha256 === actual.sha256)
    const day = (e: LedgerEntry) => e.downloadedAt.slice(0, 10)
    const what = `the PDF of “${latest.resourceName}”`
    return {
      path: file,
      size: actual.size,
      sha256: actual.sha256,
      match: !!same,
      message: same
        ? `This file is exactly ${what} as ScanDesk downloaded it on ${day(same)} (SHA-256 ${shortHash(actual.sha256)}…, as recorded; the service offers no check for SAQ files).`
        : `This file is not ${what} as ScanDesk recorded it: its SHA-256 (${shortHash(actual.sha256)}…) differs from the latest download’s (${shortHash(latest.sha256)}…, ${day(latest)}).`,
    }
  }

  private entry(entryId: string): LedgerEntry {
    return this.deps.ledger.get(entryId) ?? fail('NOT_FOUND', 'That library entry does not exist.')
  }
}
