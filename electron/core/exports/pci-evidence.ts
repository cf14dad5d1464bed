// Evidence made from the service's own data for a PCI requirement of an SAQ (issue 20 §3): a
// report's PDF through the integrity pipeline (generated if needed, streamed and hashed into the
// requirement's evidence folder, verified with the service; a mismatch keeps nothing), or the CSV
// of the findings behind the requirement (every page of the list, written atomically). Either is
// recorded as that requirement's evidence with its SHA-256 and its origin.
import { randomUUID } from 'node:crypto'
import fsp from 'node:fs/promises'
import { fail } from '@contract/errors'
import type { EvidenceOrigin, LedgerEntry } from '@contract/files'
import { findingsQuery, pciDataFor } from '@contract/pci/requirements'
import { writeAtomically } from '../files/atomic-write'
import { hashFile } from '../files/hash'
import { listCsv } from '../files/list-csv'
import { EVIDENCE_FOLDER, SAQ_FOLDER, safeFileName, safeFolderName } from '../files/names'
import { ensureRealFolders } from '../files/quarantine'
import { backoffDelay, DEFAULT_BACKOFF, sleep, type BackoffOptions } from './backoff'
import type { FileOps } from './file-ops'
import {
  documentName,
  fileState,
  requestGeneration,
  verifyWithService,
  type AccountFileDeps,
} from './service'

/** What attaching the service's data needs (SaqFiles hands over its own). */
export interface PciEvidenceDeps extends AccountFileDeps {
  files: Pick<FileOps, 'downloadToFolder' | 'documentFileName'>
  backoff?: BackoffOptions
}

/** The SAQ and requirement the evidence is for. */
export interface PciEvidenceTarget {
  accountId: string
  saqKey: string
  saqName: string
  saqType: string
  saqStatus?: string
  requirement: string
}

/** How many times "file exists" is asked while a report is generated (about two minutes). */
const GENERATION_POLLS = 20

async function evidenceFolder(deps: PciEvidenceDeps, t: PciEvidenceTarget): Promise<string> {
  return ensureRealFolders(
    await deps.accountFolder(t.accountId),
    [SAQ_FOLDER, EVIDENCE_FOLDER, safeFolderName(t.saqKey), safeFolderName(t.requirement)],
    'attach the evidence',
  )
}

function record(
  deps: PciEvidenceDeps,
  t: PciEvidenceTarget,
  file: { path: string; size: number; sha256: string },
  verdict: 'verified' | 'recorded',
  detail: string,
  origin: Omit<EvidenceOrigin, 'accountId' | 'account' | 'at'>,
): LedgerEntry {
  const at = deps.now().toISOString()
  const account = deps.accountLabel(t.accountId)
  const entry: LedgerEntry = {
    id: randomUUID(),
    accountId: t.accountId,
    accountLabel: account,
    kind: 'saq_evidence',
    resourceId: t.saqKey,
    resourceName: t.saqName,
    format: 'file',
    saq: { saqType: t.saqType, status: t.saqStatus ?? 'draft', requirement: t.requirement },
    path: file.path,
    size: file.size,
    sha256: file.sha256,
    verdict,
    detail,
    downloadedAt: at,
    verifiedAt: at,
    origin: { ...origin, accountId: t.accountId, account, at },
  }
  deps.ledger.insert(entry)
  deps.libraryChanged(t.accountId)
  return deps.ledger.get(entry.id)!
}

/**
 * A report's PDF as the requirement's evidence: the account's folder checked first (NO_FOLDER
 * before anything is asked of the service), then asked to be generated when it is not, polled
 * with backoff until ready, downloaded (hashed as it arrives) into
 * `<account folder>/SAQ/Evidence/<saq>/<requirement>/`, then verified with the service. A digest
 * the service does not confirm removes the file and fails with INTEGRITY_FAILED; nothing is
 * recorded then.
 */
export async function attachVerifiedReport(
  deps: PciEvidenceDeps,
  t: PciEvidenceTarget & { reportId: string },
): Promise<LedgerEntry> {
  // The folder first: without one nothing is asked of the service (issue 36: the report was
  // generated, then the attach failed for want of a folder).
  const folder = await evidenceFolder(deps, t)
  const client = await deps.clientFor(t.accountId)
  const name = await documentName(client, 'report', t.reportId)
  let status = await requestGeneration(client, 'report', t.reportId, 'pdf')
  for (let attempt = 0; status !== 'ready'; attempt++) {
    if (attempt >= GENERATION_POLLS)
      fail('TIMEOUT', `The service is still generating the PDF of “${name}”; attach it later.`)
    await sleep(backoffDelay(attempt, deps.backoff ?? DEFAULT_BACKOFF))
    const state = await fileState(client, 'report', t.reportId, 'pdf')
    if (state.status === 'ready') status = 'ready'
    else if (state.status === 'failed')
      fail('SERVER', `The service could not generate the PDF of “${name}”.`)
    else if (state.status === 'not_generated')
      await requestGeneration(client, 'report', t.reportId, 'pdf')
  }
  const file = await deps.files.downloadToFolder({
    client,
    opId: 'reports.download',
    input: { path: { id: t.reportId }, query: { format: 'pdf' } },
    folder,
    fileName: deps.files.documentFileName({
      name,
      id: t.reportId,
      format: 'pdf',
      date: deps.now(),
    }),
    format: 'pdf',
    maxBytes: deps.maxDownloadBytes(),
  })
  let verdict: { match: boolean; expected: string | null }
  try {
    verdict = await verifyWithService(client, 'report', t.reportId, 'pdf', file.sha256)
  } catch (err) {
    await fsp.rm(file.path, { force: true })
    throw err
  }
  if (!verdict.match) {
    await fsp.rm(file.path, { force: true })
    fail(
      'INTEGRITY_FAILED',
      `The PDF of “${name}” does not match the digest the service gives (${verdict.expected ?? 'none'}); it was not kept.`,
    )
  }
  return record(
    deps,
    t,
    file,
    'verified',
    `The PDF of report ${t.reportId} “${name}”, downloaded and verified with the service (SHA-256 matched).`,
    { operation: 'reports.download', resourceId: t.reportId, query: { format: 'pdf' } },
  )
}

/**
 * The findings behind the requirement (its map's query of the vulnerabilities list: every page,
 * at most LIST_CSV_MAX_ROWS rows) as a CSV in the requirement's evidence folder, written
 * atomically under a new name, formula-looking cells escaped; its SHA-256 is recorded.
 */
export async function attachFindingsCsv(
  deps: PciEvidenceDeps,
  t: PciEvidenceTarget,
): Promise<LedgerEntry> {
  const data = pciDataFor(t.requirement)
  if (!data)
    fail('VALIDATION', `Requirement ${t.requirement} has no findings that speak to it.`, {
      fieldErrors: { requirement: ['has no findings mapped to it'] },
    })
  const folder = await evidenceFolder(deps, t)
  const query = findingsQuery(data, deps.now())
  const client = await deps.clientFor(t.accountId)
  const csv = await listCsv(client, 'vulnerabilities.list', query)
  const date = deps.now().toISOString().slice(0, 10)
  const written = await writeAtomically(
    folder,
    safeFileName(`Findings ${t.requirement} - ${deps.accountLabel(t.accountId)} - ${date}.csv`),
    csv.text,
    { place: 'next-free', doing: 'save the findings CSV' },
  )
  const { sha256, size } = await hashFile(written)
  return record(
    deps,
    t,
    { path: written, size, sha256 },
    'recorded',
    `${csv.rows} ${data.findings.what}, every page of the service's findings list, written by ScanDesk; SHA-256 recorded when written.`,
    { operation: 'vulnerabilities.list', resourceId: null, query },
  )
}
