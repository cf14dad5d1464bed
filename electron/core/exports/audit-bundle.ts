// Audit bundles: approved SAQs' PDFs and their evidence in one folder, with SHA256SUMS and a
// manifest that says when each evidence file became the SAQ's and flags those added after its
// approval. Built under a hidden temporary name and renamed into place at the very end, so a
// crash never leaves an "Audit …" folder that looks finished (the start-up sweep removes the
// temporary one: files/leftovers.ts).
import { createHash, randomUUID } from 'node:crypto'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { AppFailure, fail } from '@contract/errors'
import type {
  AuditBundle,
  AuditBundleEvents,
  AuditBundleFile,
  EvidenceOrigin,
  LedgerEntry,
} from '@contract/files'
import { writeAtomically } from '../files/atomic-write'
import { MAX_EVIDENCE_BYTES, copyHashed } from '../files/copy'
import { errnoOf, fileFailure, nodeFileOps } from '../files/fs-ops'
import { auditBuildingName, auditFolderName, safeFolderName, safeStem } from '../files/names'
import { writeAuditEvents } from './audit-events-part'
import type { FileOps } from './file-ops'
import { SAQ_RECORDED_DETAIL } from './outcomes'
import { saqFacts, type AccountFileDeps, type SaqFacts } from './service'
import { saqFolder } from './target'

/** What building an audit bundle needs. */
export interface AuditBundleDeps extends AccountFileDeps {
  files: Pick<FileOps, 'downloadToFolder' | 'saqFileName'>
  /** The evidence recorded for an SAQ id, oldest first. */
  evidence: (accountId: string, saqId: string) => LedgerEntry[]
}

/** What goes into a bundle besides the PDFs and their evidence. */
export interface AuditBundleOptions {
  /** Each SAQ's audit events of its period (audit-events.jsonl; see audit-events-part.ts). */
  auditEvents?: boolean
}

const SUMS_FILE = 'SHA256SUMS'
const MANIFEST_FILE = 'manifest.json'

/** One file of a bundle as the manifest lists it. */
interface BundleFile extends AuditBundleFile {
  requirement: string | null
  linkedAt: string | null
  /** Evidence made from the service's data: operation, record or query, account, time. */
  origin?: EvidenceOrigin | null
}

/** A relative path with forward slashes (SHA256SUMS and the manifest read the same everywhere). */
function relative(folder: string, file: string): string {
  return path.relative(folder, file).split(path.sep).join('/')
}

/**
 * When an evidence file became this SAQ's: when it was re-pointed to the SAQ (a draft's evidence
 * on submit), else when it was attached. After the approval (both instants compared; the approval
 * time is the service's clock, the attach time this computer's) it is flagged; null when the SAQ
 * has no approval time to compare with.
 */
export function addedAfterApproval(
  entry: Pick<LedgerEntry, 'downloadedAt' | 'linkedAt'>,
  approvedAt: string | null,
): boolean | null {
  const approved = approvedAt ? Date.parse(approvedAt) : NaN
  const added = Date.parse(entry.linkedAt ?? entry.downloadedAt)
  if (Number.isNaN(approved) || Number.isNaN(added)) return null
  return added > approved
}

/**
 * Moves the finished bundle from its temporary name to `name` (`name (2)`… when taken) in the
 * same folder; never onto an existing folder. A name is checked free, then renamed to: a folder
 * that appeared meanwhile with something in it refuses the rename (EEXIST/ENOTEMPTY) and the next
 * name is tried.
 */
async function publish(temp: string, root: string, name: string): Promise<string> {
  for (let n = 1; n <= 100; n++) {
    const target = path.join(root, n === 1 ? name : `${name} (${n})`)
    const taken = await fsp.lstat(target).then(
      () => true,
      (err: unknown) => {
        if (errnoOf(err) === 'ENOENT') return false
        throw fileFailure(err, 'finish the audit bundle', root)
      },
    )
    if (taken) continue
    try {
      await fsp.rename(temp, target)
    } catch (err) {
      const code = errnoOf(err)
      if (code === 'EEXIST' || code === 'ENOTEMPTY') continue
      throw fileFailure(err, 'finish the audit bundle', root)
    }
    await nodeFileOps.syncDir(root)
    return target
  }
  return fail('CONFLICT', `Too many audit bundles were made this second in ${root}; try again.`)
}

/**
 * One audit bundle: `<account folder>/SAQ/Audit <date time>/` holding, per approved SAQ, its PDF
 * (downloaded now, through the same download as every document) and copies of its evidence
 * (re-hashed while copying; a file that no longer matches its record fails the bundle with
 * INTEGRITY_FAILED), plus `manifest.json` (each evidence file's attach time, re-point time and
 * whether it came after the approval) and `SHA256SUMS` (for `sha256sum -c`, paths relative to the
 * bundle). With `auditEvents`, each SAQ's folder also holds `audit-events.jsonl`: the account's
 * audit log of the SAQ's period (creation to its approval's own event), in SHA256SUMS and the
 * manifest (the file with kind `audit_events`, and the SAQ's `audit_events`: path, from, to, ends,
 * events, approval_event, note); a period without events has no file and a note why. A draft SAQ
 * is refused before anything is written. Everything is written into
 * `SAQ/.Audit <date time>.<random>.building` and renamed to its final name once SHA256SUMS is
 * on disk; on any failure that folder is removed. The PDFs are recorded in the ledger.
 */
export async function buildAuditBundle(
  deps: AuditBundleDeps,
  accountId: string,
  saqIds: readonly string[],
  options: AuditBundleOptions = {},
): Promise<AuditBundle> {
  const ids = [...new Set(saqIds)]
  const client = await deps.clientFor(accountId)
  const facts: SaqFacts[] = []
  for (const id of ids) facts.push(await saqFacts(client, id))
  const notApproved = facts.filter((f) => f.status !== 'approved')
  if (notApproved.length)
    fail(
      'VALIDATION',
      `Only approved SAQs go into an audit bundle; not approved: ${notApproved.map((f) => `“${f.name}” (${f.id}, ${f.status || 'no status'})`).join(', ')}.`,
    )
  const root = await saqFolder(await deps.accountFolder(accountId))
  const now = deps.now()
  const building = path.join(root, auditBuildingName(now))
  try {
    await fsp.mkdir(building)
  } catch (err) {
    throw fileFailure(err, 'create the audit bundle', root)
  }
  const files: BundleFile[] = []
  const pdfs: { facts: SaqFacts; file: BundleFile; name: string }[] = []
  const periods = new Map<string, AuditBundleEvents>()
  try {
    for (const saq of facts) {
      const sub = path.join(building, safeStem(`${saq.id} - ${saq.name}`, 120))
      await fsp.mkdir(sub)
      const pdf = await deps.files.downloadToFolder({
        client,
        opId: 'saq.show',
        input: { path: { id: saq.id }, query: { format: 'pdf' } },
        folder: sub,
        fileName: deps.files.saqFileName({
          saqType: saq.saqType,
          name: saq.name,
          organization: saq.organization,
          date: now,
        }),
        format: 'pdf',
        maxBytes: deps.maxDownloadBytes(),
      })
      const file: BundleFile = {
        path: relative(building, pdf.path),
        size: pdf.size,
        sha256: pdf.sha256,
        saqId: saq.id,
        kind: 'saq',
        requirement: null,
        attachedAt: null,
        linkedAt: null,
        afterApproval: null,
      }
      files.push(file)
      pdfs.push({ facts: saq, file, name: path.basename(pdf.path) })
      for (const evidence of deps.evidence(accountId, saq.id))
        files.push(await copyEvidence(building, sub, saq, evidence))
      if (options.auditEvents) {
        const part = await writeAuditEvents(client, sub, saq, now)
        const at = part.file === null ? null : relative(building, part.file)
        periods.set(saq.id, {
          saqId: saq.id,
          saqName: saq.name,
          path: at,
          events: part.events,
          ...part.period,
          approvalEvent: part.approvalEvent,
          note: part.note,
        })
        if (at !== null && part.sha256 !== null)
          files.push({
            path: at,
            size: part.size,
            sha256: part.sha256,
            saqId: saq.id,
            kind: 'audit_events',
            requirement: null,
            attachedAt: null,
            linkedAt: null,
            afterApproval: null,
          })
      }
    }
    const manifest = {
      format: 'scandesk-audit-bundle/2',
      account: deps.accountLabel(accountId),
      created_at: now.toISOString(),
      saqs: facts.map((f) => {
        const own = files.filter((x) => x.saqId === f.id)
        return {
          id: f.id,
          name: f.name,
          type: f.saqType,
          organization: f.organization || null,
          status: f.status,
          compliance: f.compliance,
          approved_at: f.approvedAt,
          evidence_added_after_approval: own.filter((x) => x.afterApproval).length,
          files: own.map((x) => ({
            path: x.path,
            size: x.size,
            sha256: x.sha256,
            kind: x.kind,
            requirement: x.requirement,
            attached_at: x.attachedAt,
            linked_at: x.linkedAt,
            added_after_approval: x.afterApproval,
            origin: x.origin
              ? {
                  operation: x.origin.operation,
                  resource_id: x.origin.resourceId,
                  query: x.origin.query,
                  account_id: x.origin.accountId,
                  account: x.origin.account,
                  at: x.origin.at,
                }
              : null,
          })),
          ...(periods.has(f.id) ? { audit_events: manifestEvents(periods.get(f.id)!) } : {}),
        }
      }),
    }
    const manifestPath = await writeAtomically(
      building,
      MANIFEST_FILE,
      `${JSON.stringify(manifest, null, 2)}\n`,
      { place: 'next-free', doing: `write ${MANIFEST_FILE}` },
    )
    const manifestSum = createHash('sha256')
      .update(await fsp.readFile(manifestPath))
      .digest('hex')
    const sums = [...files.map((f) => `${f.sha256}  ${f.path}`), `${manifestSum}  ${MANIFEST_FILE}`]
    await writeAtomically(building, SUMS_FILE, `${sums.join('\n')}\n`, {
      place: 'next-free',
      doing: `write ${SUMS_FILE}`,
    })
    const bundle = await publish(building, root, auditFolderName(now))
    for (const { facts: f, file } of pdfs) {
      const at = deps.now().toISOString()
      deps.ledger.insert({
        id: randomUUID(),
        accountId,
        accountLabel: deps.accountLabel(accountId),
        kind: 'saq',
        resourceId: f.id,
        resourceName: f.name,
        format: 'pdf',
        saq: { saqType: f.saqType, status: f.status, requirement: null },
        path: path.join(bundle, ...file.path.split('/')),
        size: file.size,
        sha256: file.sha256,
        verdict: 'recorded',
        detail: `${SAQ_RECORDED_DETAIL} Part of the audit bundle ${path.basename(bundle)}.`,
        downloadedAt: at,
        verifiedAt: at,
      })
    }
    deps.libraryChanged(accountId)
    return {
      folder: bundle,
      manifest: path.join(bundle, MANIFEST_FILE),
      files: files.map(({ path: p, size, sha256, saqId, kind, attachedAt, afterApproval }) => ({
        path: p,
        size,
        sha256,
        saqId,
        kind,
        attachedAt,
        afterApproval,
      })),
      ...(options.auditEvents ? { auditEvents: [...periods.values()] } : {}),
    }
  } catch (err) {
    await fsp.rm(building, { recursive: true, force: true })
    throw err
  }
}

/**
 * An SAQ's audit events as the manifest describes them: the file (null when the period held no
 * event), the period, how it ends, how many events, the approval's own event and, where there is
 * something to say (no file, no approval event), why.
 */
function manifestEvents(p: AuditBundleEvents) {
  return {
    path: p.path,
    from: p.from,
    to: p.to,
    ends: p.ends,
    events: p.events,
    approval_event: p.approvalEvent,
    note: p.note,
  }
}

/** Copies one evidence file into the bundle (re-hashed against its record) and describes it. */
async function copyEvidence(
  building: string,
  sub: string,
  saq: SaqFacts,
  evidence: LedgerEntry,
): Promise<BundleFile> {
  const requirement = evidence.saq?.requirement ?? 'unsorted'
  const folder = path.join(sub, 'Evidence', safeFolderName(requirement))
  await fsp.mkdir(folder, { recursive: true })
  const name = path.basename(evidence.path)
  const label = `The evidence file ${name} (requirement ${requirement} of “${saq.name}”)`
  const copy = await copyHashed({
    source: evidence.path,
    folder,
    fileName: name,
    maxBytes: MAX_EVIDENCE_BYTES,
    expectedSha256: evidence.sha256,
    label,
  }).catch((err: unknown) => {
    if (err instanceof AppFailure && err.error.code === 'INTEGRITY_FAILED') throw err
    const reason = err instanceof AppFailure ? err.error.message : 'it could not be read'
    throw new AppFailure({
      code: err instanceof AppFailure ? err.error.code : 'INTERNAL',
      message: `${label} could not be copied: ${reason}`,
    })
  })
  return {
    path: relative(building, copy.path),
    size: copy.size,
    sha256: copy.sha256,
    saqId: saq.id,
    kind: 'saq_evidence',
    requirement,
    attachedAt: evidence.downloadedAt,
    linkedAt: evidence.linkedAt ?? null,
    afterApproval: addedAfterApproval(evidence, saq.approvedAt),
    origin: evidence.origin ?? null,
  }
}
