// The large seed scale (`--seed-scale large`): bulk targets, scans, hosts and vulnerabilities
// added after the demo data, so every demo row keeps its id and values.
import type { Row, SandboxContext } from '../../types'
import { isOpen } from './evolution'
import { FINDINGS, OPERATING_SYSTEMS, pciCompliant, severityOf } from './findings'
import { TARGET_NAMES } from './seed-setup'
import { SEVERITIES, zeroCounts, type SeverityCounts } from './results'

/** Totals of the large scale (demo rows included). */
export const LARGE_SCALE = { targets: 20_000, scans: 5_000, vulnerabilities: 100_000 } as const

const DAY = 86_400_000
const TARGETS_PER_SCAN = 4
const SCAN_NAMES = ['Perimeter sweep', 'Internal baseline', 'PCI check', 'Web check', 'Audit']
const TAGS = ['production', 'pci', 'internal', 'dmz', 'staging']
const SCANNERS: Record<string, string> = {
  'org-001': 'scr-001',
  'org-002': 'scr-005',
  'org-003': 'scr-006',
}

/** Organization of the k-th bulk scan (and its targets): 70 % org-001, 20 % org-002, 10 % org-003. */
function orgOf(k: number): string {
  const d = k % 10
  return d < 7 ? 'org-001' : d < 9 ? 'org-002' : 'org-003'
}

/** Status of the k-th bulk scan: mostly completed; never running (no scan finishes mid-request). */
function statusOf(k: number): 'completed' | 'queued' | 'stopped' | 'failed' {
  const d = k % 20
  return d === 0 ? 'queued' : d === 1 ? 'stopped' : d === 2 ? 'failed' : 'completed'
}

/** Per finding template: the attributes every vulnerability of it shares. */
const TEMPLATE_ATTRS = FINDINGS.map((f) => ({
  code: f.code,
  title: f.title,
  severity: severityOf(f.cvss),
  cvss_score: f.cvss,
  cvss_vector: f.vector,
  cve_ids: f.cves,
  pci_compliant: pciCompliant(f.cvss),
  port: f.port,
  protocol: f.protocol,
  service: f.service,
  solution: f.solution,
  description: f.description,
}))

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * Tops the scanning collections up to LARGE_SCALE: targets (one IPv4 address each), scans of four
 * targets each, one host per target of a completed scan with its vulnerabilities spread evenly,
 * and one scan_run per finished scan. Deterministic for a seed (uses ctx.rng only), plain loops.
 */
export function seedLarge(ctx: SandboxContext): void {
  const { db, rng } = ctx
  const now = ctx.now().getTime()
  const targetCount = Math.max(0, LARGE_SCALE.targets - db.list('targets').length)
  const scanCount = Math.max(0, LARGE_SCALE.scans - db.list('scans').length)

  const targets: Row[] = []
  for (let i = 0; i < targetCount; i++) {
    const n = i + 1
    const created = iso(now - rng.int(30, 400) * DAY)
    const tags = [TAGS[i % TAGS.length]]
    if (rng.next() < 0.3) tags.push(TAGS[(i + 2) % TAGS.length])
    targets.push(
      db.insert('targets', {
        id: db.nextId('tgt'),
        type: 'target',
        attributes: {
          name: `${TARGET_NAMES[i % TARGET_NAMES.length]} ${n}`,
          address: `172.${16 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`,
          description: i % 3 === 0 ? `Bulk target ${n}` : null,
          tags,
          hosts_count: 1,
          last_scanned_at: null,
          created_at: created,
          updated_at: created,
        },
        internal: { organization_id: orgOf(Math.floor(i / TARGETS_PER_SCAN)) },
      }),
    )
  }
  if (targets.length === 0 || scanCount === 0) return

  // Vulnerabilities are spread evenly over the hosts of the completed bulk scans.
  let completed = 0
  for (let k = 0; k < scanCount; k++) if (statusOf(k) === 'completed') completed++
  const hostTotal = completed * TARGETS_PER_SCAN
  // Counted as the vulnerabilities list counts: open findings (the demo's fixed ones are not listed).
  const listed = db.list('vulnerabilities').filter(isOpen).length
  const vulnsNeeded = Math.max(0, LARGE_SCALE.vulnerabilities - listed)
  const perHost = Math.floor(vulnsNeeded / hostTotal)
  let extraHosts = vulnsNeeded - perHost * hostTotal

  for (let k = 0; k < scanCount; k++) {
    const org = orgOf(k)
    const status = statusOf(k)
    const scanTargets: Row[] = []
    for (let j = 0; j < TARGETS_PER_SCAN; j++) {
      scanTargets.push(targets[(k * TARGETS_PER_SCAN + j) % targets.length])
    }
    const created = now - rng.int(20, 365) * DAY
    const started = created + rng.int(1, 10) * DAY
    const finished = started + rng.int(5, 90) * 60_000
    const done = status !== 'queued'
    const scanId = db.nextId('scn')
    const counts = zeroCounts()
    let scanVulns = 0

    if (status === 'completed') {
      for (const target of scanTargets) {
        const n = extraHosts > 0 ? perHost + 1 : perHost
        if (extraHosts > 0) extraHosts--
        scanVulns += seedHost(ctx, { scanId, org, target, finished, vulns: n, counts })
        target.attributes.last_scanned_at = iso(finished)
      }
    }
    db.insert('scans', {
      id: scanId,
      type: 'scan',
      attributes: {
        name: `${SCAN_NAMES[k % SCAN_NAMES.length]} ${k + 1}`,
        description: k % 4 === 0 ? null : `Bulk scan ${k + 1}`,
        status,
        progress: status === 'completed' ? 100 : done ? rng.int(5, 80) : 0,
        target_ids: scanTargets.map((t) => t.id),
        scan_profile: k % 5 === 0 ? 'web_application' : 'full_and_fast',
        scanner_id: SCANNERS[org],
        port_list_id: org === 'org-001' ? 'prt-001' : null,
        credential_ids: [],
        schedule_id: null,
        started_at: done ? iso(started) : null,
        finished_at: done ? iso(finished) : null,
        schedule_next_time: null,
        in_timezone: org === 'org-001' ? 'Europe/Berlin' : 'UTC',
        hosts_count: status === 'completed' ? TARGETS_PER_SCAN : 0,
        vulnerabilities_count: scanVulns,
        severity_counts: counts,
        failure_reason:
          status === 'failed' ? 'The scanner did not answer (connection timed out)' : null,
        created_at: iso(created),
        updated_at: iso(done ? finished : created),
      },
      internal: { organization_id: org },
    })
    if (done) {
      db.insert('scan_runs', {
        id: db.nextId('run'),
        type: 'scan_run',
        attributes: {
          scan_id: scanId,
          status,
          started_at: iso(started),
          finished_at: iso(finished),
          duration_seconds: Math.round((finished - started) / 1000),
          hosts_count: status === 'completed' ? TARGETS_PER_SCAN : 0,
          vulnerabilities_count: scanVulns,
          severity_counts: { ...counts },
          created_at: iso(finished),
          updated_at: iso(finished),
        },
        internal: { organization_id: org },
      })
    }
  }
}

/** Inserts one host of a completed bulk scan and `vulns` distinct findings; returns `vulns`. */
function seedHost(
  ctx: SandboxContext,
  p: {
    scanId: string
    org: string
    target: Row
    finished: number
    vulns: number
    counts: SeverityCounts
  },
): number {
  const { db, rng } = ctx
  const at = iso(p.finished)
  const ip = String(p.target.attributes.address)
  const hostId = db.nextId('hst')
  const hostCounts = zeroCounts()
  const ports = new Set<number>()
  const services: { port: number; protocol: string; service: string | null }[] = []
  let weight = 0
  // FINDINGS has a prime number of entries, so any step visits distinct templates.
  const size = TEMPLATE_ATTRS.length
  const start = rng.int(0, size - 1)
  const step = rng.int(1, size - 1)
  const count = Math.min(p.vulns, size)
  for (let i = 0; i < count; i++) {
    const f = TEMPLATE_ATTRS[(start + i * step) % size]
    hostCounts[f.severity]++
    p.counts[f.severity]++
    weight += f.cvss_score * 2
    if (f.port !== null && f.protocol !== null && !ports.has(f.port)) {
      ports.add(f.port)
      services.push({ port: f.port, protocol: f.protocol, service: f.service })
    }
    db.insert('vulnerabilities', {
      id: db.nextId('vul'),
      type: 'vulnerability',
      attributes: {
        title: f.title,
        severity: f.severity,
        cvss_score: f.cvss_score,
        cvss_vector: f.cvss_vector,
        cve_ids: f.cve_ids,
        pci_compliant: f.pci_compliant,
        host_id: hostId,
        scan_id: p.scanId,
        host_ip: ip,
        port: f.port,
        protocol: f.protocol,
        solution: f.solution,
        description: f.description,
        last_seen_at: at,
        first_seen_at: at,
        created_at: at,
        updated_at: at,
      },
      internal: { organization_id: p.org, finding: f.code },
    })
  }
  services.sort((a, b) => a.port - b.port)
  db.insert('hosts', {
    id: hostId,
    type: 'host',
    attributes: {
      ip,
      hostname: null,
      os: OPERATING_SYSTEMS[rng.int(0, OPERATING_SYSTEMS.length - 1)],
      open_ports: [...ports].sort((a, b) => a - b),
      services,
      scan_id: p.scanId,
      target_id: p.target.id,
      last_seen_at: at,
      first_seen_at: at,
      created_at: at,
      updated_at: at,
      vulnerabilities_count: count,
      severity_counts: hostCounts,
      max_severity: SEVERITIES.find((s) => hostCounts[s] > 0) ?? null,
      risk_score: Math.min(100, Math.round(weight)),
    },
    internal: { organization_id: p.org },
  })
  return count
}
