import type { ChangesAnswer } from '@contract/changes'
import type { SnapshotFinding } from '@contract/findings/compare'

const HEADER = [
  'change',
  'title',
  'severity',
  'cvss_score',
  'previous_severity',
  'previous_cvss_score',
  'host_ip',
  'port',
  'protocol',
  'cve_ids',
  'first_seen_at',
  'last_seen_at',
  'finding_id',
]

const cells = (change: string, f: SnapshotFinding, before?: SnapshotFinding): string[] => [
  change,
  f.title,
  f.severity,
  String(f.cvss_score),
  before?.severity ?? '',
  before ? String(before.cvss_score) : '',
  f.host_ip ?? '',
  f.port === null || f.port === undefined ? '' : String(f.port),
  f.protocol ?? '',
  f.cve_ids.join(' '),
  f.first_seen_at ?? '',
  f.last_seen_at ?? '',
  f.id,
]

/**
 * The comparison as CSV rows (header first): new, fixed, changed (with the earlier severity and
 * score), then still open. Changed rows are also still open; when the data cannot say whether a
 * finding changed, no row says "changed". Cells are text; the CSV export escapes formulas.
 */
export function changesCsv(answer: ChangesAnswer): string[][] {
  const rows = [HEADER]
  const c = answer.comparison
  if (!c) return rows
  for (const f of c.new) rows.push(cells('new', f))
  for (const f of c.fixed) rows.push(cells('fixed', f))
  for (const ch of c.changed ?? []) rows.push(cells('changed', ch.after, ch.before))
  for (const f of c.stillOpen) rows.push(cells('still open', f))
  return rows
}
