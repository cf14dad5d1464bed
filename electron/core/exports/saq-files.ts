import { randomUUID } from 'node:crypto'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { fail } from '@contract/errors'
import type { AuditBundle, LedgerEntry } from '@contract/files'
import { MAX_EVIDENCE_BYTES, checkSourceFile, copyHashed } from '../files/copy'
import { errnoOf, fileFailure } from '../files/fs-ops'
import { EVIDENCE_FOLDER, SAQ_FOLDER, safeFolderName } from '../files/names'
import { ensureRealFolders } from '../files/quarantine'
import type { HostServices } from '../host'
import type { AccountClient } from '../http/client'
import type { LedgerRepo } from '../store/ledger-repo'
import { buildAuditBundle, type AuditBundleOptions } from './audit-bundle'
import type { FileOps } from './file-ops'
import {
  attachFindingsCsv,
  attachVerifiedReport,
  type PciEvidenceDeps,
  type PciEvidenceTarget,
} from './pci-evidence'
import {
  checkFolder,
  isInside,
  refuseRendererPath,
  type DownloadFolders,
  type HostMode,
} from './folders'

/** What the SAQ files (evidence, audit bundles) need. */
export interface SaqFilesDeps {
  ledger: LedgerRepo
  folders: DownloadFolders
  files: Pick<FileOps, 'downloadToFolder' | 'saqFileName' | 'documentFileName'>
  host: Pick<HostServices, 'pickFile' | 'pickFolder'>
  clientFor: (accountId: string) => Promise<AccountClient>
  libraryChanged: (accountId: string) => void
  accountLabel: (accountId: string) => string
  /** The largest download (the PDF of each SAQ in a bundle). */
  maxDownloadBytes: () => number
  now: () => Date
}

/** What attaching evidence asks for. */
export interface AttachRequest {
  accountId: string
  saqKey: string
  saqName: string
  saqType: string
  saqStatus?: string
  requirement: string
  path?: string
}

export type { HostMode } from './folders'

/**
 * SAQ files on disk: evidence attached to requirements (copied into the account's SAQ folder and
 * recorded in the ledger) and audit bundles (approved SAQs' PDFs and their evidence in one folder,
 * with SHA256SUMS and a manifest).
 */
export class SaqFiles {
  constructor(private readonly deps: SaqFilesDeps) {}

  /**
   * Copies one evidence file into `<account folder>/SAQ/Evidence/<saqKey>/<requirement>/` (hashed
   * while copying, no overwrite) and records it (kind saq_evidence, verdict recorded). Electron:
   * the OS file dialog in main (a path from the renderer is refused); browser mode: the typed
   * absolute path, inside the user's home, the temp folder or the account's download folders
   * (DownloadFolders.checkTyped). The user's original is only read. Null when the dialog was
   * cancelled.
   */
  async attach(req: AttachRequest, mode: HostMode): Promise<LedgerEntry | null> {
    let source: string | null
    let base: string
    if (mode === 'electron') {
      refuseRendererPath(mode, req.path, 'file', 'evidence file')
      // The account's folder before the dialog: none for a copy that has nowhere to go.
      base = await this.accountFolder(req.accountId)
      const picked = await this.deps.host.pickFile(
        `Choose evidence for requirement ${req.requirement} of “${req.saqName}”`,
        'any',
      )
      if (!picked) return null
      source = await this.deps.folders.checkPicked(picked, 'evidence file')
      await checkSourceFile(path.resolve(picked), MAX_EVIDENCE_BYTES)
    } else {
      if (!req.path)
        fail('VALIDATION', 'Type the absolute path of the evidence file.', {
          fieldErrors: { path: ['is required'] },
        })
      source = await this.deps.folders.checkTyped(req.accountId, req.path, 'evidence file')
      // A link named as the evidence is refused (the copy records the file the user named).
      await checkSourceFile(path.resolve(req.path), MAX_EVIDENCE_BYTES)
      base = await this.accountFolder(req.accountId)
    }
    const folder = await ensureRealFolders(
      base,
      [SAQ_FOLDER, EVIDENCE_FOLDER, safeFolderName(req.saqKey), safeFolderName(req.requirement)],
      'attach the evidence',
    )
    // `source` is the real path that was judged: the copy reads only the file opened there.
    const copy = await copyHashed({
      source,
      confined: true,
      folder,
      fileName: path.basename(source),
      maxBytes: MAX_EVIDENCE_BYTES,
    })
    const now = this.deps.now().toISOString()
    const entry: LedgerEntry = {
      id: randomUUID(),
      accountId: req.accountId,
      accountLabel: this.deps.accountLabel(req.accountId),
      kind: 'saq_evidence',
      resourceId: req.saqKey,
      resourceName: req.saqName,
      format: 'file',
      saq: { saqType: req.saqType, status: req.saqStatus ?? 'draft', requirement: req.requirement },
      path: copy.path,
      size: copy.size,
      sha256: copy.sha256,
      verdict: 'recorded',
      detail: `SHA-256 recorded when the file was attached (copied from ${source}); the service offers no check for evidence files.`,
      downloadedAt: now,
      verifiedAt: now,
    }
    this.deps.ledger.insert(entry)
    this.deps.libraryChanged(req.accountId)
    return this.deps.ledger.get(entry.id)!
  }

  /** The evidence of one SAQ (its id, or its draft key), oldest first. */
  list(accountId: string, saqKey: string): LedgerEntry[] {
    return this.deps.ledger.listFor(accountId, 'saq_evidence', saqKey)
  }

  /**
   * Removes an evidence entry: ScanDesk's copy (only inside the account's `SAQ/Evidence` folder,
   * reached without a symbolic link; a copy already gone is fine) and its ledger row. The user's
   * original file is never touched.
   */
  async remove(entryId: string): Promise<{ removed: true }> {
    const entry =
      this.deps.ledger.get(entryId) ??
      fail('NOT_FOUND', 'That evidence file is not in the library.')
    if (entry.kind !== 'saq_evidence')
      fail('VALIDATION', 'Only SAQ evidence can be removed here; downloaded files stay recorded.')
    const present = await fsp.lstat(entry.path).then(
      () => true,
      (err: unknown) => {
        if (errnoOf(err) === 'ENOENT') return false
        throw fileFailure(err, 'remove the evidence file', entry.path, 'file')
      },
    )
    if (present) {
      const real = await this.deps.folders.openable(entry.accountId, entry.path, 'any')
      const inEvidence = this.deps.folders
        .known(entry.accountId)
        .some((f) => isInside(path.join(f, SAQ_FOLDER, EVIDENCE_FOLDER), real))
      if (!inEvidence)
        fail(
          'FORBIDDEN',
          `${entry.path} is not inside this account’s SAQ evidence folder, so ScanDesk does not delete it.`,
        )
      try {
        await fsp.unlink(real)
      } catch (err) {
        if (errnoOf(err) !== 'ENOENT')
          throw fileFailure(err, 'remove the evidence file', entry.path, 'file')
      }
    }
    this.deps.ledger.delete(entryId)
    this.deps.libraryChanged(entry.accountId)
    return { removed: true }
  }

  /** Re-points the evidence of a draft key to the SAQ id it was submitted as (files stay put). */
  link(accountId: string, draftKey: string, saqId: string): { linked: number } {
    if (draftKey === saqId) return { linked: 0 }
    const at = this.deps.now().toISOString()
    const linked = this.deps.ledger.relink(accountId, 'saq_evidence', draftKey, saqId, at)
    if (linked) this.deps.libraryChanged(accountId)
    return { linked }
  }

  /** One audit bundle of approved SAQs (see `buildAuditBundle`). */
  auditBundle(
    accountId: string,
    saqIds: readonly string[],
    options: AuditBundleOptions = {},
  ): Promise<AuditBundle> {
    return buildAuditBundle(
      {
        ...this.deps,
        accountFolder: (id) => this.accountFolder(id),
        evidence: (id, saqId) => this.list(id, saqId),
      },
      accountId,
      saqIds,
      options,
    )
  }

  /** A report's PDF, downloaded and verified, as a PCI requirement's evidence (pci-evidence.ts). */
  attachReport(req: PciEvidenceTarget & { reportId: string }): Promise<LedgerEntry> {
    return attachVerifiedReport(this.pciDeps(), req)
  }

  /** The findings behind a PCI requirement, as CSV, as its evidence (pci-evidence.ts). */
  attachFindings(req: PciEvidenceTarget): Promise<LedgerEntry> {
    return attachFindingsCsv(this.pciDeps(), req)
  }

  private pciDeps(): PciEvidenceDeps {
    return { ...this.deps, accountFolder: (id) => this.accountFolder(id) }
  }

  /** The account's download folder (checked); the OS folder dialog once where there is one. */
  private async accountFolder(accountId: string): Promise<string> {
    const current = this.deps.folders.get(accountId)
    if (current) return checkFolder(current)
    const picked = await this.deps.host.pickFolder(
      `Choose where to save the files of “${this.deps.accountLabel(accountId)}”`,
    )
    if (!picked) fail('NO_FOLDER', 'Choose a download folder for this account first.')
    const folder = await checkFolder(picked)
    this.deps.folders.set(accountId, folder)
    return folder
  }
}
