import type { DocumentFormat, DocumentKind } from '@contract/files'
import type { AccountClient } from '../http/client'
import type { LedgerRepo } from '../store/ledger-repo'

/** The state of one generated file as the service reports it. */
/** What saving the service's data as an account's file needs (SAQ bundles, PCI evidence). */
export interface AccountFileDeps {
  ledger: LedgerRepo
  clientFor: (accountId: string) => Promise<AccountClient>
  libraryChanged: (accountId: string) => void
  accountLabel: (accountId: string) => string
  /** The largest download. */
  maxDownloadBytes: () => number
  now: () => Date
  /** The account's download folder (checked; asks for one where it can). */
  accountFolder: (accountId: string) => Promise<string>
}

export interface ServiceFileState {
  status: 'not_generated' | 'generating' | 'ready' | 'failed'
  sha256: string | null
}

/** The service's answer to "is this the file you produced?". */
export interface ServiceVerdict {
  match: boolean
  /** The service's digest when it told us (reports: expected_sha256; advanced: files.x.sha256). */
  expected: string | null
}

type Call = Pick<AccountClient, 'call'>
type Options = { signal?: AbortSignal }

/** Kinds the service generates (and checks); an SAQ's PDF needs neither. */
type GeneratedKind = Exclude<DocumentKind, 'saq'>

const GROUP: Record<GeneratedKind, 'reports' | 'advanced_reports'> = {
  report: 'reports',
  advanced_report: 'advanced_reports',
}

/** The operations that download a document: the reports' download, or `saq.show` with format=pdf. */
export type DownloadOp = 'reports.download' | 'advanced_reports.download' | 'saq.show'

/** What `saq.show` says of an SAQ (for its file name, the ledger and the audit manifest). */
export interface SaqFacts {
  id: string
  name: string
  saqType: string
  organization: string
  status: string
  compliance: string | null
  approvedAt: string | null
  createdAt: string | null
}

interface Shown {
  data: {
    attributes: { name?: unknown; files?: Record<string, { status?: string; sha256?: string }> }
  }
}

async function show(client: Call, kind: GeneratedKind, id: string, o: Options): Promise<Shown> {
  return (await client.call(`${GROUP[kind]}.show`, { path: { id } }, o)) as Shown
}

/**
 * The catalog operation that downloads a document of `kind`; an SAQ's PDF is `saq.show` with the
 * query `SAQ_PDF_QUERY` ({format: 'pdf'}), the same `{format}` query the reports' downloads take.
 */
export function downloadOp(kind: DocumentKind): DownloadOp {
  return kind === 'saq' ? 'saq.show' : `${GROUP[kind]}.download`
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '')

/** An SAQ's facts from `saq.show` (JSON). */
export async function saqFacts(client: Call, id: string, o: Options = {}): Promise<SaqFacts> {
  const answer = (await client.call('saq.show', { path: { id } }, o)) as {
    data: { id?: unknown; attributes: Record<string, unknown> }
  }
  const a = answer.data.attributes
  return {
    id: text(answer.data.id) || id,
    name: text(a.name).trim() || id,
    saqType: text(a.saq_type),
    organization: text(a.organization_name),
    status: text(a.status),
    compliance: text(a.compliance) || null,
    approvedAt: text(a.approved_at) || null,
    createdAt: text(a.created_at) || null,
  }
}

/** The document's name (for file names and the tray). */
export async function documentName(
  client: Call,
  kind: DocumentKind,
  id: string,
  o: Options = {},
): Promise<string> {
  if (kind === 'saq') return (await saqFacts(client, id, o)).name
  const name = (await show(client, kind, id, o)).data.attributes.name
  return typeof name === 'string' && name.trim() ? name : id
}

/** True for kinds the service generates and can check (reports), false for SAQ PDFs. */
export function isGenerated(kind: DocumentKind): kind is GeneratedKind {
  return kind !== 'saq'
}

/** Asks the service to build the file; 'ready' when it already exists. */
export async function requestGeneration(
  client: Call,
  kind: GeneratedKind,
  id: string,
  format: DocumentFormat,
  o: Options = {},
): Promise<'generating' | 'ready'> {
  const answer = (await client.call(
    `${GROUP[kind]}.generate`,
    { path: { id }, body: { format } },
    o,
  )) as { data: { status: 'generating' | 'ready' } }
  return answer.data.status
}

/** Reports: "file exists"; advanced reports (no such operation): files.<format> of show. */
export async function fileState(
  client: Call,
  kind: GeneratedKind,
  id: string,
  format: DocumentFormat,
  o: Options = {},
): Promise<ServiceFileState> {
  if (kind === 'report') {
    const answer = (await client.call(
      'reports.file_exists',
      { path: { id }, query: { format } },
      o,
    )) as { data: { status: ServiceFileState['status']; sha256?: string } }
    return { status: answer.data.status, sha256: answer.data.sha256 ?? null }
  }
  const file = (await show(client, kind, id, o)).data.attributes.files?.[format]
  const status = file?.status
  return {
    status:
      status === 'ready' || status === 'generating' || status === 'failed'
        ? status
        : 'not_generated',
    sha256: typeof file?.sha256 === 'string' ? file.sha256 : null,
  }
}

/**
 * Asks the service whether `sha256` is the digest of its file. Reports: the hash comparison
 * operation; advanced reports: compare with files.<format>.sha256 of show. Only a match counts.
 */
export async function verifyWithService(
  client: Call,
  kind: GeneratedKind,
  id: string,
  format: DocumentFormat,
  sha256: string,
  o: Options = {},
): Promise<ServiceVerdict> {
  if (kind === 'report') {
    const answer = (await client.call(
      'reports.verify_hash',
      { path: { id }, body: { format, sha256 } },
      o,
    )) as { data: { match: boolean; expected_sha256?: string } }
    return { match: answer.data.match === true, expected: answer.data.expected_sha256 ?? null }
  }
  const state = await fileState(client, kind, id, format, o)
  const expected = state.status === 'ready' ? state.sha256 : null
  return { match: expected !== null && expected.toLowerCase() === sha256, expected }
}
