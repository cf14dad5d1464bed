import type { Row } from '../../types'
import { buildCsv, type CsvCell } from './csv'
import { buildPdf, type PdfBlock } from './pdf'

/** One finding as a report prints it (a snapshot kept in the report's internal data). */
export interface Finding {
  title: string
  severity: 'critical' | 'high' | 'medium' | 'low' | 'info'
  cvss: number
  host: string
  port: number | null
  cve: string | null
  target_id?: string | null
}

/** Severities from worst to least. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const

const LABEL: Record<string, string> = {
  pci: 'PCI compliance',
  technical: 'Technical',
  executive: 'Executive summary',
  executive_summary: 'Executive summary',
  technical_detail: 'Technical detail',
  pci_compliance: 'PCI compliance',
  trend_analysis: 'Trend analysis',
}

/** Findings of a row, worst first (stable order). */
export function findingsOf(row: Row): Finding[] {
  const list = (row.internal?.findings as Finding[] | undefined) ?? []
  return [...list].sort(
    (a, b) =>
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      b.cvss - a.cvss ||
      a.title.localeCompare(b.title),
  )
}

/** Counts per severity, e.g. "critical 1, high 3, medium 2, low 0, info 4". */
export function severitySummary(findings: Finding[]): string {
  return SEVERITIES.map((s) => `${s} ${findings.filter((f) => f.severity === s).length}`).join(', ')
}

const FINDING_COLUMNS = [
  { title: 'Severity', width: 58 },
  { title: 'CVSS', width: 38 },
  { title: 'Finding', width: 204 },
  { title: 'CVE', width: 95 },
  { title: 'Host', width: 70 },
  { title: 'Port', width: 30 },
]

function findingRow(f: Finding): string[] {
  return [f.severity, f.cvss.toFixed(1), f.title, f.cve ?? '', f.host, f.port ? String(f.port) : '']
}

function day(iso: unknown): string {
  return typeof iso === 'string' ? iso.slice(0, 10) : ''
}

/** The targets a report names: its target and, for an advanced report, its filter's targets. */
function targetIdsOf(row: Row): string[] {
  const a = row.attributes
  const filters = (a.filters ?? {}) as { target_ids?: unknown }
  const ids = [a.target_id, ...(Array.isArray(filters.target_ids) ? filters.target_ids : [])]
  return [...new Set(ids.filter((id): id is string => typeof id === 'string' && id !== ''))]
}

/**
 * The names of a report's targets as they are now, to keep with the report the first time one
 * of its files is made (`internal.target_names`): later downloads print the same names, so the
 * file's bytes and digest never change when a target is renamed or deleted afterwards. Null when
 * the report keeps them already.
 */
export function targetNamesSnapshot(
  row: Row,
  nameOf: (id: string) => string | null,
): { target_names: Record<string, string | null> } | null {
  if (row.internal?.target_names) return null
  return { target_names: Object.fromEntries(targetIdsOf(row).map((id) => [id, nameOf(id)])) }
}

/** A target as a report prints it: its name and id, or its id and that it no longer exists. */
function targetText(row: Row, id: unknown): string {
  if (typeof id !== 'string' || id === '') return '-'
  const names = (row.internal?.target_names ?? {}) as Record<string, string | null | undefined>
  const name = names[id]
  return name ? `${name} (${id})` : `${id} (no longer exists)`
}

/** PDF blocks of a scan report. */
function reportBlocks(row: Row): PdfBlock[] {
  const a = row.attributes
  const i = row.internal ?? {}
  const findings = findingsOf(row)
  return [
    { kind: 'heading', text: String(a.name) },
    { kind: 'text', text: `Report ${row.id} - ${LABEL[String(a.report_type)] ?? a.report_type}` },
    {
      kind: 'text',
      text: `Scan: ${i.scan_name ? `${String(i.scan_name)} (${String(a.scan_id)})` : (a.scan_id ?? '-')}`,
    },
    { kind: 'text', text: `Target: ${targetText(row, a.target_id)}` },
    { kind: 'text', text: `Report date: ${day(a.created_at)}` },
    { kind: 'text', text: `Findings: ${findings.length} (${severitySummary(findings)})` },
    { kind: 'spacer' },
    { kind: 'heading', text: 'Findings' },
    { kind: 'table', columns: FINDING_COLUMNS, rows: findings.map(findingRow) },
  ]
}

/** PDF blocks of an advanced report, one part per chosen section. */
function advancedBlocks(row: Row): PdfBlock[] {
  const a = row.attributes
  const f = (a.filters ?? {}) as Record<string, unknown>
  const findings = findingsOf(row)
  const blocks: PdfBlock[] = [
    { kind: 'heading', text: String(a.name) },
    { kind: 'text', text: `Advanced report ${row.id} - ${LABEL[String(a.report_type)] ?? ''}` },
    {
      kind: 'text',
      text:
        `Filters: severity ${(f.severity as string[] | undefined)?.join('/') ?? 'all'}; ` +
        `targets ${(f.target_ids as string[] | undefined)?.map((t) => targetText(row, t)).join(', ') ?? 'all'}; ` +
        `dates ${f.date_from ?? 'any'} to ${f.date_to ?? 'any'}`,
    },
    { kind: 'text', text: `Created: ${day(a.created_at)}` },
  ]
  for (const section of (a.sections as string[]) ?? []) {
    blocks.push({ kind: 'spacer' })
    if (section === 'summary') {
      blocks.push({ kind: 'heading', text: 'Summary' })
      blocks.push({
        kind: 'text',
        text: `${findings.length} findings: ${severitySummary(findings)}.`,
      })
    } else if (section === 'findings') {
      blocks.push({ kind: 'heading', text: 'Findings' })
      blocks.push({ kind: 'table', columns: FINDING_COLUMNS, rows: findings.map(findingRow) })
    } else if (section === 'hosts') {
      const hosts = new Map<string, number>()
      for (const x of findings) hosts.set(x.host, (hosts.get(x.host) ?? 0) + 1)
      blocks.push({ kind: 'heading', text: 'Hosts' })
      blocks.push({
        kind: 'table',
        columns: [
          { title: 'Host', width: 300 },
          { title: 'Findings', width: 195 },
        ],
        rows: [...hosts]
          .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
          .map(([h, n]) => [h, String(n)]),
      })
    } else if (section === 'remediation') {
      blocks.push({ kind: 'heading', text: 'Remediation priorities' })
      for (const x of findings.filter((y) => y.severity === 'critical' || y.severity === 'high'))
        blocks.push({ kind: 'text', text: `- Fix "${x.title}" on ${x.host} (${x.severity}).` })
    } else if (section === 'trends') {
      blocks.push({ kind: 'heading', text: 'Trends' })
      blocks.push({ kind: 'text', text: 'Findings per severity in the selected period:' })
      blocks.push({ kind: 'text', text: severitySummary(findings) })
    } else if (section === 'compliance') {
      const failing = findings.filter((x) => x.cvss >= 4).length
      blocks.push({ kind: 'heading', text: 'Compliance' })
      blocks.push({
        kind: 'text',
        text: failing
          ? `${failing} findings with CVSS 4.0 or higher prevent a passing scan.`
          : 'No finding with CVSS 4.0 or higher: the scan passes.',
      })
    }
  }
  return blocks
}

/** The PDF of a report or an advanced report row. */
export function reportPdf(row: Row): Buffer {
  return buildPdf({
    title: String(row.attributes.name),
    createdAt: String(row.attributes.created_at ?? ''),
    blocks: row.type === 'advanced_report' ? advancedBlocks(row) : reportBlocks(row),
  })
}

/** The CSV of a report or an advanced report row: one line per finding. */
export function reportCsv(row: Row): Buffer {
  const rows: CsvCell[][] = findingsOf(row).map((f) => [
    row.id,
    f.severity,
    f.cvss,
    f.title,
    f.cve,
    f.host,
    f.port,
  ])
  return buildCsv(['report_id', 'severity', 'cvss', 'finding', 'cve', 'host', 'port'], rows)
}
