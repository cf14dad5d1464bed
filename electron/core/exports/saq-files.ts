import { createHash, randomBytes, randomUUID } from 'node:crypto'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { AppFailure, fail } from '@contract/errors'
import type { AuditBundle, LedgerEntry, LedgerKind } from '@contract/files'
import { MAX_EVIDENCE_BYTES, checkSourceFile, copyHashed } from '../files/copy'
import { errnoOf, fileFailure, nodeFileOps } from '../files/fs-ops'
import {
  EVIDENCE_FOLDER,
  SAQ_FOLDER,
  auditFolderName,
  safeFolderName,
  safeStem,
} from '../files/names'
import { placeWithoutOverwrite } from '../files/place'
import { ensureRealFolders } from '../files/quarantine'
import type { HostServices } from '../host'
import type { AccountClient } from '../http/client'
import type { LedgerRepo } from '../store/ledger-repo'
import type { FileOps } from './file-ops'
import {
  checkFolder,
  isInside,
  refuseRendererPath,
  type DownloadFolders,
  type HostMode,
} from './folders'
import { SAQ_RECORDED_DETAIL } from './outcomes'
import { saqFacts, type SaqFacts } from './service'
import { saqFolder } from './target'

/** What the SAQ files (evidence, audit bundles) need. */
export interface SaqFilesDeps {
  ledger: LedgerRepo
  folders: DownloadFolders
  files: Pick<FileOps, 'downloadToFolder' | 'saqFileName'>
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

const SUMS_FILE = 'SHA256SUMS'
const MANIFEST_FILE = 'manifest.json'

/** One file of a bundle as the manifest lists it. */
interface BundleFile {
  path: string
  size: number
  sha256: string
  saqId: string
  kind: LedgerKind
  requirement: string | null
}

/** A relative path with forward slashes (SHA256SUMS and the manifest read the same everywhere). */
function relative(folder: string, file: string): string {
  return path.relative(folder, file).split(path.sep).join('/')
}

/** Writes a small file atomically into a folder: temp file, fsync, rename without overwriting. */
async function writeAtomically(folder: string, name: string, text: string): Promise<string> {
  const temp = path.join(folder, `.${name}.${randomBytes(6).toString('hex')}.partial`)
  try {
    const fh = await nodeFileOps.open(temp, 'wx', 0o600)
    try {
      const bytes = Buffer.from(text, 'utf8')
      for (let offset = 0; offset < bytes.length;) {
        const { bytesWritten } = await fh.write(bytes, offset, bytes.length - offset)
        offset += bytesWritten
      }
      await fh.sync()
    } finally {
      await fh.close()
    }
    return await placeWithoutOverwrite(nodeFileOps, temp, folder, name)
  } catch (err) {
    await fsp.rm(temp, { force: true })
    throw fileFailure(err, `write ${name}`, folder)
  }
}

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
    if (mode === 'electron') {
      refuseRendererPath(mode, req.path, 'file', 'evidence file')
      source = await this.deps.host.pickFile(
        `Choose evidence for requirement ${req.requirement} of “${req.saqName}”`,
        'any',
      )
      if (!source) return null
    } else {
      if (!req.path)
        fail('VALIDATION', 'Type the absolute path of the evidence file.', {
          fieldErrors: { path: ['is required'] },
        })
      await this.deps.folders.checkTyped(req.accountId, req.path, 'evidence file')
      source = req.path
    }
    source = path.resolve(source)
    await checkSourceFile(source, MAX_EVIDENCE_BYTES)
    const base = await this.accountFolder(req.accountId)
    const folder = await ensureRealFolders(
      base,
      [SAQ_FOLDER, EVIDENCE_FOLDER, safeFolderName(req.saqKey), safeFolderName(req.requirement)],
      'attach the evidence',
    )
    const copy = await copyHashed({
      source,
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
    const linked = this.deps.ledger.relink(accountId, 'saq_evidence', draftKey, saqId)
    if (linked) this.deps.libraryChanged(accountId)
    return { linked }
  }

  /**
   * One audit bundle: `<account folder>/SAQ/Audit <date time>/` (created exclusively) holding, per
   * approved SAQ, its PDF (downloaded now, through the same download as every document) and copies
   * of its evidence (re-hashed while copying; a file that no longer matches its record fails the
   * bundle with INTEGRITY_FAILED), plus `manifest.json` and `SHA256SUMS` (for `sha256sum -c`, paths
   * relative to the bundle). A draft SAQ is refused before anything is written; on any failure the
   * bundle folder is removed. The PDFs are recorded in the ledger (verdict recorded).
   */
  async auditBundle(accountId: string, saqIds: readonly string[]): Promise<AuditBundle> {
    const ids = [...new Set(saqIds)]
    const client = await this.deps.clientFor(accountId)
    const facts: SaqFacts[] = []
    for (const id of ids) facts.push(await saqFacts(client, id))
    const notApproved = facts.filter((f) => f.status !== 'approved')
    if (notApproved.length)
      fail(
        'VALIDATION',
        `Only approved SAQs go into an audit bundle; not approved: ${notApproved.map((f) => `“${f.name}” (${f.id}, ${f.status || 'no status'})`).join(', ')}.`,
      )
    const base = await this.accountFolder(accountId)
    const root = await saqFolder(base)
    const now = this.deps.now()
    const bundle = await this.makeBundleFolder(root, auditFolderName(now))
    const files: BundleFile[] = []
    const pdfs: { facts: SaqFacts; file: BundleFile; abs: string }[] = []
    try {
      for (const saq of facts) {
        const sub = path.join(bundle, safeStem(`${saq.id} - ${saq.name}`, 120))
        await fsp.mkdir(sub)
        const pdf = await this.deps.files.downloadToFolder({
          client,
          opId: 'saq.show',
          input: { path: { id: saq.id }, query: { format: 'pdf' } },
          folder: sub,
          fileName: this.deps.files.saqFileName({
            saqType: saq.saqType,
            name: saq.name,
            organization: saq.organization,
            date: now,
          }),
          format: 'pdf',
          maxBytes: this.deps.maxDownloadBytes(),
        })
        const file: BundleFile = {
          path: relative(bundle, pdf.path),
          size: pdf.size,
          sha256: pdf.sha256,
          saqId: saq.id,
          kind: 'saq',
          requirement: null,
        }
        files.push(file)
        pdfs.push({ facts: saq, file, abs: pdf.path })
        for (const evidence of this.list(accountId, saq.id)) {
          const requirement = evidence.saq?.requirement ?? 'unsorted'
          const folder = path.join(sub, 'Evidence', safeFolderName(requirement))
          await fsp.mkdir(folder, { recursive: true })
          const name = path.basename(evidence.path)
          const copy = await copyHashed({
            source: evidence.path,
            folder,
            fileName: name,
            maxBytes: MAX_EVIDENCE_BYTES,
            expectedSha256: evidence.sha256,
            label: `The evidence file ${name} (requirement ${requirement} of “${saq.name}”)`,
          }).catch((err: unknown) => {
            if (err instanceof AppFailure && err.error.code === 'INTEGRITY_FAILED') throw err
            const reason = err instanceof AppFailure ? err.error.message : 'it could not be read'
            throw new AppFailure({
              code: err instanceof AppFailure ? err.error.code : 'INTERNAL',
              message: `The evidence file ${name} (requirement ${requirement} of “${saq.name}”) could not be copied: ${reason}`,
            })
          })
          files.push({
            path: relative(bundle, copy.path),
            size: copy.size,
            sha256: copy.sha256,
            saqId: saq.id,
            kind: 'saq_evidence',
            requirement,
          })
        }
      }
      const manifest = {
        format: 'scandesk-audit-bundle/1',
        account: this.deps.accountLabel(accountId),
        created_at: now.toISOString(),
        saqs: facts.map((f) => ({
          id: f.id,
          name: f.name,
          type: f.saqType,
          organization: f.organization || null,
          status: f.status,
          compliance: f.compliance,
          approved_at: f.approvedAt,
          files: files
            .filter((x) => x.saqId === f.id)
            .map((x) => ({
              path: x.path,
              size: x.size,
              sha256: x.sha256,
              kind: x.kind,
              requirement: x.requirement,
            })),
        })),
      }
      const manifestPath = await writeAtomically(
        bundle,
        MANIFEST_FILE,
        `${JSON.stringify(manifest, null, 2)}\n`,
      )
      const manifestBytes = await fsp.readFile(manifestPath)
      const manifestSum = createHash('sha256').update(manifestBytes).digest('hex')
      const sums = [
        ...files.map((f) => `${f.sha256}  ${f.path}`),
        `${manifestSum}  ${MANIFEST_FILE}`,
      ]
      await writeAtomically(bundle, SUMS_FILE, `${sums.join('\n')}\n`)
      for (const { facts: f, file, abs } of pdfs) {
        const at = this.deps.now().toISOString()
        this.deps.ledger.insert({
          id: randomUUID(),
          accountId,
          accountLabel: this.deps.accountLabel(accountId),
          kind: 'saq',
          resourceId: f.id,
          resourceName: f.name,
          format: 'pdf',
          saq: { saqType: f.saqType, status: f.status, requirement: null },
          path: abs,
          size: file.size,
          sha256: file.sha256,
          verdict: 'recorded',
          detail: `${SAQ_RECORDED_DETAIL} Part of the audit bundle ${path.basename(bundle)}.`,
          downloadedAt: at,
          verifiedAt: at,
        })
      }
      this.deps.libraryChanged(accountId)
      return {
        folder: bundle,
        manifest: manifestPath,
        files: files.map(({ path: p, size, sha256, saqId, kind }) => ({
          path: p,
          size,
          sha256,
          saqId,
          kind,
        })),
      }
    } catch (err) {
      await fsp.rm(bundle, { recursive: true, force: true })
      throw err
    }
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

  /** Creates the bundle folder exclusively (`Audit … (2)` when the second is taken). */
  private async makeBundleFolder(root: string, name: string): Promise<string> {
    for (let n = 1; n <= 100; n++) {
      const target = path.join(root, n === 1 ? name : `${name} (${n})`)
      try {
        await fsp.mkdir(target)
        return target
      } catch (err) {
        if (errnoOf(err) === 'EEXIST') continue
        throw fileFailure(err, 'create the audit bundle', root)
      }
    }
    return fail('CONFLICT', `Too many audit bundles were made this second in ${root}; try again.`)
  }
}
