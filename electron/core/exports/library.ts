import path from 'node:path'
import { AppFailure, fail } from '@contract/errors'
import type { DocumentFormat, DocumentKind, FileCheck, LedgerEntry } from '@contract/files'
import type { HostServices } from '../host'
import type { AccountClient } from '../http/client'
import type { LedgerRepo } from '../store/ledger-repo'
import type { FileOps } from './file-ops'
import type { DownloadFolders } from './folders'
import { shortHash } from './outcomes'
import { documentName, verifyWithService } from './service'

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

const FORMAT = { pdf: 'PDF', csv: 'CSV' } as const

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
   * Re-verifies an entry. Offline: the file's hash against the recorded one (same → verified,
   * different → changed, gone → missing). Online: the service is asked about the file's hash.
   */
  async reverify(entryId: string, mode: 'offline' | 'online'): Promise<LedgerEntry> {
    const entry = this.entry(entryId)
    if (!entry.sha256)
      fail('FILE_NOT_FOUND', 'This download failed, so there is no file to verify.')
    const now = this.deps.now().toISOString()
    const actual = await hashOrNull(this.deps.files, entry.path)
    let patch: Pick<LedgerEntry, 'verdict' | 'detail'>
    if (!actual) {
      patch = { verdict: 'missing', detail: `The file is no longer at ${entry.path}.` }
    } else if (mode === 'offline') {
      patch =
        actual.sha256 === entry.sha256
          ? {
              verdict: entry.verdict === 'mismatch' ? 'mismatch' : 'verified',
              detail:
                entry.verdict === 'mismatch'
                  ? entry.detail
                  : `Unchanged since it was downloaded (SHA-256 ${shortHash(actual.sha256)}…).`,
            }
          : {
              verdict: 'changed',
              detail: `The file changed on disk since it was downloaded: its SHA-256 is now ${shortHash(actual.sha256)}…, it was ${shortHash(entry.sha256)}….`,
            }
    } else {
      const client = await this.deps.clientFor(entry.accountId)
      const verdict = await verifyWithService(
        client,
        entry.kind,
        entry.resourceId,
        entry.format,
        actual.sha256,
      )
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

  /** Opens an entry's file with the OS (only document files inside the account's folders). */
  async open(entryId: string): Promise<{ opened: boolean }> {
    const entry = this.entry(entryId)
    const file = await this.deps.folders.openable(entry.accountId, entry.path)
    return { opened: await this.deps.host.openPath(file) }
  }

  /** Shows an entry's file in its folder (same rules as open). */
  async reveal(entryId: string): Promise<{ revealed: boolean }> {
    const entry = this.entry(entryId)
    const file = await this.deps.folders.openable(entry.accountId, entry.path)
    return { revealed: await this.deps.host.revealPath(file) }
  }

  /** "Verify a file…": hashes a file (given or picked) and asks the service about a report. */
  async verifyFile(req: VerifyFileRequest): Promise<FileCheck | null> {
    const file = req.path ?? (await this.deps.host.pickFile('Choose a file to verify'))
    if (!file) return null
    const actual = await hashOrNull(this.deps.files, path.resolve(file))
    if (!actual) fail('FILE_NOT_FOUND', `There is no file at ${file}.`)
    const client = await this.deps.clientFor(req.accountId)
    const name = await documentName(client, req.kind, req.resourceId)
    const verdict = await verifyWithService(
      client,
      req.kind,
      req.resourceId,
      req.format,
      actual.sha256,
    )
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

  private entry(entryId: string): LedgerEntry {
    return this.deps.ledger.get(entryId) ?? fail('NOT_FOUND', 'That library entry does not exist.')
  }
}
