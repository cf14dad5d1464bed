// Reading a scan's runs and findings from the service, as the comparison needs them.
import { snapshotFinding, type SnapshotFinding } from '@contract/findings/compare'

/** A read of one catalog operation for the account; `fromCache` when it was the offline copy. */
export type Read = (
  op: 'scans.history' | 'scans.vulnerabilities',
  input: { path: { id: string }; query: Record<string, unknown> },
) => Promise<{ data: unknown; fromCache: boolean }>

/** One run of the scan's history. */
export interface Run {
  id: string
  status: string
  started_at: string
  finished_at: string | null
}

/** Pages of 500 (the catalog's most); a scan with more findings than this many pages is cut. */
export const PAGE = 500
export const MAX_PAGES = 100

interface Page {
  data?: { id?: unknown; attributes?: Record<string, unknown> }[]
  meta?: { pagination?: { total_pages?: unknown } }
}

/** The scan's runs, newest first (the history's first 100). */
export async function runsOf(
  read: Read,
  scanId: string,
): Promise<{ runs: Run[]; fromCache: boolean }> {
  const answer = await read('scans.history', {
    path: { id: scanId },
    query: { sort: '-started_at', per_page: 100 },
  })
  const runs: Run[] = []
  for (const row of (answer.data as Page).data ?? []) {
    const a = row.attributes ?? {}
    if (typeof row.id !== 'string' || typeof a.started_at !== 'string') continue
    runs.push({
      id: row.id,
      status: String(a.status),
      started_at: a.started_at,
      finished_at: typeof a.finished_at === 'string' ? a.finished_at : null,
    })
  }
  runs.sort((x, y) => Date.parse(y.started_at) - Date.parse(x.started_at))
  return { runs, fromCache: answer.fromCache }
}

/** A finding of the service's answer as a snapshot keeps it; null when it does not fit. */
export function toFinding(row: {
  id?: unknown
  attributes?: Record<string, unknown>
}): SnapshotFinding | null {
  const a = row.attributes ?? {}
  const parsed = snapshotFinding.safeParse({
    id: row.id,
    title: a.title,
    severity: a.severity,
    cvss_score: a.cvss_score,
    cve_ids: a.cve_ids,
    host_id: a.host_id,
    host_ip: a.host_ip ?? null,
    port: a.port ?? null,
    protocol: a.protocol ?? null,
    first_seen_at: a.first_seen_at ?? null,
    last_seen_at: a.last_seen_at ?? null,
  })
  return parsed.success ? parsed.data : null
}

/**
 * Every finding the service lists for the scan (fixed ones included, as the service keeps them),
 * page by page; `skipped` counts rows that do not fit, `cut` says the scan had more than 50,000.
 */
export async function findingsOf(
  read: Read,
  scanId: string,
): Promise<{ findings: SnapshotFinding[]; skipped: number; cut: boolean; fromCache: boolean }> {
  const findings: SnapshotFinding[] = []
  let skipped = 0
  let fromCache = false
  let pages = 1
  for (let page = 1; page <= pages && page <= MAX_PAGES; page++) {
    const answer = await read('scans.vulnerabilities', {
      path: { id: scanId },
      query: { page, per_page: PAGE, sort: 'first_seen_at' },
    })
    fromCache ||= answer.fromCache
    const body = answer.data as Page
    for (const row of body.data ?? []) {
      const f = toFinding(row)
      if (f) findings.push(f)
      else skipped++
    }
    const total = Number(body.meta?.pagination?.total_pages ?? 1)
    pages = Number.isFinite(total) ? total : 1
  }
  return { findings, skipped, cut: pages > MAX_PAGES, fromCache }
}

/** The findings a run saw: last seen from its start on (it is the scan's latest run). */
export const seenBy = (run: Run, findings: readonly SnapshotFinding[]): SnapshotFinding[] =>
  findings.filter((f) => Date.parse(String(f.last_seen_at)) >= Date.parse(run.started_at))
