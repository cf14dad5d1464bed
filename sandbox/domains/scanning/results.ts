// What a finished scan run produces: hosts, vulnerabilities and a history entry.
import type { Row, SandboxContext } from '../../types'
import { hostsOf, type ScannedHost } from './addresses'
import { epochOf, findingsAt, isOpen, type RunFinding } from './evolution'
import { FINDINGS, OPERATING_SYSTEMS, pciCompliant, severityOf } from './findings'
import { keyedRng } from './hash'
import { insertRow, touch } from './util'

/** Severity names, most severe first. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const

/** Counts per severity. */
export type SeverityCounts = Record<(typeof SEVERITIES)[number], number>

/** Zero counts. */
export const zeroCounts = (): SeverityCounts => ({
  critical: 0,
  high: 0,
  medium: 0,
  low: 0,
  info: 0,
})

/** Counts the severities of `rows` (vulnerability rows). */
export function countSeverities(rows: Row[]): SeverityCounts {
  const out = zeroCounts()
  for (const r of rows) out[r.attributes.severity as keyof SeverityCounts]++
  return out
}

const MAX_HOSTS = 6
const MAX_FINDINGS = 30
const MIN_FINDINGS = 4

/** The hosts a scan of these targets reaches (at most six, in target order). */
export function scanHosts(
  ctx: SandboxContext,
  targetIds: string[],
): (ScannedHost & { targetId: string })[] {
  const out: (ScannedHost & { targetId: string })[] = []
  for (const id of targetIds) {
    const target = ctx.db.get('targets', id)
    if (!target) continue
    for (const h of hostsOf(String(target.attributes.address), MAX_HOSTS - out.length)) {
      if (!out.some((o) => o.ip === h.ip)) out.push({ ...h, hostname: h.hostname, targetId: id })
    }
    if (out.length >= MAX_HOSTS) break
  }
  return out
}

/** Options of one finished run. */
export interface RunOptions {
  startedAt: Date
  finishedAt: Date
  /** Seeded runs: 0 for the newest, older ones show findings fixed later (evolution.ts). */
  age?: number
}

/**
 * Finishes a run of `scan`: upserts its hosts (by IP) and vulnerabilities (by host and finding),
 * marks the vulnerabilities this run no longer sees fixed (kept, with their last_seen_at), removes
 * the hosts it no longer reaches, updates the scan and targets, and records a scan_run.
 * A scan whose targets are all gone fails instead.
 */
export function finishRun(ctx: SandboxContext, scan: Row, opts: RunOptions): Row {
  const org = String(scan.internal?.organization_id ?? 'org-001')
  const started = opts.startedAt.toISOString()
  const finished = opts.finishedAt.toISOString()
  const duration = Math.round((opts.finishedAt.getTime() - opts.startedAt.getTime()) / 1000)
  const targets = scan.attributes.target_ids as string[]
  const hosts = scanHosts(ctx, targets)
  if (hosts.length === 0) {
    touch(ctx, 'scans', scan.id, {
      status: 'failed',
      finished_at: finished,
      failure_reason: 'None of the scan targets exists any more',
    })
    return recordRun(ctx, scan, org, {
      status: 'failed',
      started,
      finished,
      duration,
      vulns: [],
      hosts: 0,
    })
  }

  const epoch = epochOf(scan, opts.age)
  const plan = hosts.map((h) => ({ host: h, findings: findingsAt(scan.id, h.ip, epoch) }))
  let total = plan.reduce((n, p) => n + p.findings.length, 0)
  for (const p of [...plan].reverse()) {
    while (total > MAX_FINDINGS && p.findings.length > 1) {
      p.findings.pop()
      total--
    }
  }
  const spare = FINDINGS.filter((f) => !plan[0].findings.some((p) => p.template === f))
  while (total < MIN_FINDINGS) {
    const template = spare.shift()!
    plan[0].findings.push({ template, cvss: template.cvss })
    total++
  }

  const existingHosts = ctx.db.list('hosts').filter((h) => h.attributes.scan_id === scan.id)
  const existingVulns = ctx.db
    .list('vulnerabilities')
    .filter((v) => v.attributes.scan_id === scan.id)
  const keepHosts = new Set<string>()
  const keepVulns = new Set<string>()
  const runVulns: Row[] = []

  for (const { host, findings } of plan) {
    const osRng = keyedRng(host.ip)
    const services = uniqueServices(findings)
    const hostAttrs = {
      ip: host.ip,
      hostname: host.hostname,
      os: OPERATING_SYSTEMS[osRng.int(0, OPERATING_SYSTEMS.length - 1)],
      open_ports: [...new Set(services.map((s) => s.port))].sort((a, b) => a - b),
      services,
      scan_id: scan.id,
      target_id: host.targetId,
      last_seen_at: finished,
    }
    const old = existingHosts.find((h) => h.attributes.ip === host.ip)
    const hostRow = old
      ? touch(ctx, 'hosts', old.id, hostAttrs)
      : insertRow(ctx, 'hosts', org, {
          ...hostAttrs,
          first_seen_at: finished,
          created_at: finished,
        })
    keepHosts.add(hostRow.id)

    const hostVulns: Row[] = []
    for (const { template: f, cvss } of findings) {
      const attrs = {
        title: f.title,
        severity: severityOf(cvss),
        cvss_score: cvss,
        cvss_vector: f.vector,
        cve_ids: f.cves,
        pci_compliant: pciCompliant(cvss),
        host_id: hostRow.id,
        scan_id: scan.id,
        host_ip: host.ip,
        port: f.port,
        protocol: f.protocol,
        solution: f.solution,
        description: f.description,
        last_seen_at: finished,
      }
      const prev = existingVulns.find(
        (v) => v.attributes.host_id === hostRow.id && v.internal?.finding === f.code,
      )
      const row = prev
        ? touch(ctx, 'vulnerabilities', prev.id, attrs, { fixed: false })
        : insertRow(
            ctx,
            'vulnerabilities',
            org,
            { ...attrs, first_seen_at: finished, created_at: finished },
            { finding: f.code },
          )
      keepVulns.add(row.id)
      hostVulns.push(row)
    }
    summarizeHost(ctx, hostRow, hostVulns)
    runVulns.push(...hostVulns)
  }
  for (const v of existingVulns) {
    if (!keepVulns.has(v.id) && isOpen(v))
      ctx.db.update('vulnerabilities', v.id, {}, { fixed: true })
  }
  for (const h of existingHosts) if (!keepHosts.has(h.id)) ctx.db.remove('hosts', h.id)

  touch(
    ctx,
    'scans',
    scan.id,
    {
      status: 'completed',
      progress: 100,
      finished_at: finished,
      failure_reason: null,
      hosts_count: plan.length,
      vulnerabilities_count: runVulns.length,
      severity_counts: countSeverities(runVulns),
    },
    { run_epoch: epoch },
  )
  for (const id of targets)
    if (ctx.db.get('targets', id)) touch(ctx, 'targets', id, { last_scanned_at: finished })
  return recordRun(ctx, scan, org, {
    status: 'completed',
    started,
    finished,
    duration,
    vulns: runVulns,
    hosts: plan.length,
  })
}

function uniqueServices(findings: RunFinding[]) {
  const seen = new Map<string, { port: number; protocol: string; service: string | null }>()
  for (const { template: f } of findings) {
    if (f.port === null || f.protocol === null) continue
    seen.set(`${f.port}/${f.protocol}`, { port: f.port, protocol: f.protocol, service: f.service })
  }
  return [...seen.values()].sort((a, b) => a.port - b.port)
}

/** Recomputes a host's counts, highest severity and risk score from its vulnerabilities. */
export function summarizeHost(ctx: SandboxContext, host: Row, vulns: Row[]): void {
  const counts = countSeverities(vulns)
  const max = SEVERITIES.find((s) => counts[s] > 0) ?? null
  const weight = vulns.reduce((sum, v) => sum + (v.attributes.cvss_score as number) * 2, 0)
  touch(ctx, 'hosts', host.id, {
    vulnerabilities_count: vulns.length,
    severity_counts: counts,
    max_severity: max,
    risk_score: Math.min(100, Math.round(weight)),
  })
}

/** Records one run of a scan in its history. */
export function recordRun(
  ctx: SandboxContext,
  scan: Row,
  org: string,
  run: {
    status: string
    started: string
    finished: string
    duration: number
    vulns: Row[]
    hosts: number
  },
): Row {
  return insertRow(ctx, 'scan_runs', org, {
    scan_id: scan.id,
    status: run.status,
    started_at: run.started,
    finished_at: run.finished,
    duration_seconds: run.duration,
    hosts_count: run.hosts,
    vulnerabilities_count: run.vulns.length,
    severity_counts: countSeverities(run.vulns),
    created_at: run.finished,
  })
}
