import type { Row, SandboxContext } from '../../types'
import type { Finding } from './documents'
import { completeFile, GENERATION_MS, setFileState, type FileFormat } from './files'
import { gatherFindings } from './handlers/advanced-reports'

/** An ISO time `days` (fractional allowed) before the sandbox clock. */
export function ago(ctx: SandboxContext, days: number): string {
  return new Date(ctx.now().getTime() - Math.round(days * 86_400_000)).toISOString()
}

// Fallback findings when the scanning domain has no vulnerabilities for a scan.
const FINDINGS: Omit<Finding, 'host'>[] = [
  {
    title: 'Apache HTTP Server path traversal',
    severity: 'critical',
    cvss: 9.8,
    port: 80,
    cve: 'CVE-2021-42013',
  },
  {
    title: 'Remote Desktop exposed with a wormable flaw',
    severity: 'critical',
    cvss: 9.8,
    port: 3389,
    cve: 'CVE-2019-0708',
  },
  {
    title: 'OpenSSL heartbeat memory disclosure',
    severity: 'high',
    cvss: 7.5,
    port: 443,
    cve: 'CVE-2014-0160',
  },
  { title: 'Anonymous FTP login allowed', severity: 'high', cvss: 7.5, port: 21, cve: null },
  {
    title: 'Outdated OpenSSH with agent forwarding flaw',
    severity: 'high',
    cvss: 7.3,
    port: 22,
    cve: 'CVE-2023-38408',
  },
  { title: 'TLS 1.0 protocol enabled', severity: 'medium', cvss: 5.3, port: 443, cve: null },
  { title: 'SMB signing not required', severity: 'medium', cvss: 5.3, port: 445, cve: null },
  {
    title: 'DNS server answers recursive queries',
    severity: 'medium',
    cvss: 5.8,
    port: 53,
    cve: null,
  },
  { title: 'Self-signed TLS certificate', severity: 'medium', cvss: 6.4, port: 8443, cve: null },
  {
    title: 'jQuery before 3.5 cross-site scripting',
    severity: 'medium',
    cvss: 6.1,
    port: 443,
    cve: 'CVE-2020-11023',
  },
  { title: 'HTTP TRACE method enabled', severity: 'medium', cvss: 4.3, port: 80, cve: null },
  { title: 'Weak SSH key exchange algorithms', severity: 'low', cvss: 3.7, port: 22, cve: null },
  { title: 'Missing HTTP security headers', severity: 'low', cvss: 3.1, port: 443, cve: null },
  { title: 'ICMP timestamp response', severity: 'info', cvss: 0, port: null, cve: null },
  { title: 'Server banner discloses its version', severity: 'info', cvss: 0, port: 80, cve: null },
]

function str(v: unknown): string | null {
  return typeof v === 'string' && v ? v : null
}

function firstOf(v: unknown): string | null {
  return Array.isArray(v) ? str(v[0]) : null
}

/** Findings of a scan: the scanning domain's vulnerabilities when present, else a sample. */
export function scanFindings(ctx: SandboxContext, scanId: string, index: number): Finding[] {
  const fromScan: Finding[] = []
  for (const v of ctx.db.list('vulnerabilities')) {
    const a = v.attributes
    if (a.scan_id !== scanId || v.internal?.fixed === true) continue
    const severity = str(a.severity) as Finding['severity'] | null
    const hostRow = str(a.host_id) ? ctx.db.get('hosts', String(a.host_id)) : undefined
    fromScan.push({
      title: str(a.name) ?? str(a.title) ?? v.id,
      severity:
        severity && ['critical', 'high', 'medium', 'low', 'info'].includes(severity)
          ? severity
          : 'info',
      cvss: Number(a.cvss ?? a.cvss_score ?? a.score ?? 0) || 0,
      host: str(a.host_ip) ?? str(a.ip) ?? str(hostRow?.attributes.ip) ?? '-',
      port: typeof a.port === 'number' ? a.port : null,
      cve: firstOf(a.cve_ids) ?? firstOf(a.cves) ?? str(a.cve),
    })
    if (fromScan.length >= 60) break
  }
  if (fromScan.length) return fromScan
  const count = 5 + ((index * 7) % 9)
  return Array.from({ length: count }, (_, k) => {
    const f = FINDINGS[(index * 4 + k * 7) % FINDINGS.length]
    return { ...f, host: `203.0.113.${10 + ((index + k) % 40)}` }
  })
}

const TYPES = ['pci', 'technical', 'executive'] as const

interface ReportSeed {
  scan: string
  org: string
  /** Formats ready at seed time; 'generating:pdf' and 'failed:pdf' set other states. */
  files: string[]
}

// rpt-001..010 ready in both formats; rpt-011 never generated (generate example); rpt-012 PDF
// generating; rpt-013 PDF failed; rpt-014 (delete example), rpt-015/016 (bulk delete example);
// rpt-017/018 belong to org-002; rpt-019 has only its CSV.
const REPORTS: ReportSeed[] = [
  ...Array.from({ length: 10 }, (_, i) => ({
    scan: `scn-${String(i + 1).padStart(3, '0')}`,
    org: 'org-001',
    files: ['pdf', 'csv'],
  })),
  { scan: 'scn-011', org: 'org-001', files: [] },
  { scan: 'scn-012', org: 'org-001', files: ['generating:pdf'] },
  { scan: 'scn-013', org: 'org-001', files: ['failed:pdf'] },
  { scan: 'scn-013', org: 'org-001', files: ['pdf'] },
  { scan: 'scn-014', org: 'org-001', files: [] },
  { scan: 'scn-015', org: 'org-001', files: ['csv'] },
  { scan: 'scn-014', org: 'org-002', files: ['pdf', 'csv'] },
  { scan: 'scn-015', org: 'org-002', files: ['pdf'] },
  { scan: 'scn-012', org: 'org-001', files: ['csv'] },
]

/** Seeds scan reports rpt-001… (see REPORTS for the states). */
export function seedReports(ctx: SandboxContext): void {
  REPORTS.forEach((spec, i) => {
    const scan = ctx.db.get('scans', spec.scan)
    const scanName = str(scan?.attributes.name)
    const type = TYPES[i % TYPES.length]
    const created = ago(ctx, 28 - i * 1.3)
    const findings = scanFindings(ctx, spec.scan, i)
    let row: Row = ctx.db.insert('reports', {
      id: ctx.db.nextId('rpt'),
      type: 'report',
      attributes: {
        name: `${scanName ?? `Scan ${spec.scan}`} - ${type === 'pci' ? 'PCI' : type === 'technical' ? 'technical' : 'executive'} report`,
        report_type: type,
        scan_id: spec.scan,
        target_id:
          str(scan?.attributes.target_id) ?? `tgt-${String((i % 60) + 1).padStart(3, '0')}`,
        status: 'pending',
        findings_count: findings.length,
        files: {},
        created_at: created,
        updated_at: created,
      },
      internal: {
        organization_id: spec.org,
        findings,
        scan_name: scanName,
        requested_by: 'usr-001',
      },
    })
    for (const f of spec.files) {
      const [state, format] = f.includes(':') ? f.split(':') : ['ready', f]
      if (state === 'ready') row = completeFile(ctx, 'reports', row, format as FileFormat)
      else if (state === 'failed')
        row = setFileState(ctx, 'reports', row, format as FileFormat, {
          status: 'failed',
          requested_at: created,
          generated_at: null,
        })
      else
        row = setFileState(
          ctx,
          'reports',
          row,
          format as FileFormat,
          { status: 'generating', requested_at: ctx.now().toISOString(), generated_at: null },
          { due: { [format]: ctx.now().getTime() + GENERATION_MS } },
        )
    }
  })
}

/** Seeds advanced reports adr-001…006 for org-001 (adr-001 ready in both formats). */
export function seedAdvancedReports(ctx: SandboxContext): void {
  const specs = [
    {
      name: 'Quarterly executive summary',
      type: 'executive_summary',
      sections: ['summary', 'trends', 'compliance'],
      filters: {},
      ready: true,
    },
    {
      name: 'Monthly technical detail',
      type: 'technical_detail',
      sections: ['summary', 'findings', 'hosts', 'remediation'],
      filters: { severity: ['critical', 'high', 'medium'] },
      ready: false,
    },
    {
      name: 'PCI external scan evidence',
      type: 'pci_compliance',
      sections: ['summary', 'findings', 'compliance'],
      filters: { target_ids: ['tgt-001', 'tgt-002', 'tgt-003'] },
      ready: false,
    },
    {
      name: 'Critical findings trend',
      type: 'trend_analysis',
      sections: ['trends', 'findings'],
      filters: { severity: ['critical'] },
      ready: true,
    },
    {
      name: 'Draft board summary',
      type: 'executive_summary',
      sections: ['summary'],
      filters: {},
      ready: false,
    },
    {
      name: 'Old remediation list',
      type: 'technical_detail',
      sections: ['remediation'],
      filters: { severity: ['high'] },
      ready: false,
    },
  ]
  specs.forEach((s, i) => {
    const created = ago(ctx, 20 - i * 2)
    const findings = s.ready ? gatherFindings(ctx, 'org-001', s.filters) : undefined
    const row: Row = ctx.db.insert('advanced_reports', {
      id: ctx.db.nextId('adr'),
      type: 'advanced_report',
      attributes: {
        name: s.name,
        description: null,
        report_type: s.type,
        filters: s.filters,
        sections: s.sections,
        status: 'pending',
        findings_count: findings ? findings.length : null,
        files: {},
        created_at: created,
        updated_at: created,
      },
      internal: { organization_id: 'org-001', created_by: 'usr-001', findings },
    })
    if (s.ready)
      completeFile(
        ctx,
        'advanced_reports',
        completeFile(ctx, 'advanced_reports', row, 'pdf'),
        'csv',
      )
  })
}
