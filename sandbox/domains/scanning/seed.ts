// Deterministic seed of the scanning domain (runs after identity and commerce).
import type { Row, SandboxContext } from '../../types'
import { isOpen } from './evolution'
import { prompt } from './prompt'
import { finishRun, zeroCounts } from './results'
import { spreadFirstSeen } from './seed-first-seen'
import { nextScanTime, scanDuration } from './scans'
import {
  seedCredentials,
  seedPortLists,
  seedScanners,
  seedScanProfiles,
  seedSchedules,
  seedTargets,
} from './seed-setup'
import { insertRow, touch } from './util'

const HOUR = 3_600_000
const DAY = 24 * HOUR

const SCAN_NAMES = [
  'External perimeter',
  'Payment DMZ',
  'Office network',
  'Web applications',
  'PCI quarterly external',
  'Mail servers',
  'VPN gateways',
  'Database tier',
  'Staging environment',
  'Branch offices',
  'Partner integrations',
  'Globex storefront',
  'Globex back office',
  'Initech internal',
  'Developer tooling',
  'Nightly perimeter sweep',
  'Cardholder data environment',
  'New acquisitions',
  'Wireless controllers',
  'Weekly internal baseline',
  'Daily web check',
  'Pre-release check',
  'Printer fleet',
  'Globex weekly external',
  'Year-end audit',
  'Legacy mainframe gateway',
  'Lab network',
  'Customer VPN pool',
  'Branch office VPN',
  'Backup servers',
]

/** Per scan (1-based): status, organization, schedule id and a one-off next time in hours. */
function planOf(n: number): { status: string; org: string; schedule?: string; inHours?: number } {
  const org = [12, 13, 24].includes(n) ? 'org-002' : n === 14 ? 'org-003' : 'org-001'
  const schedules: Record<number, string> = {
    1: 'sch-001',
    2: 'sch-002',
    3: 'sch-005',
    4: 'sch-003',
    5: 'sch-004',
    20: 'sch-001',
    21: 'sch-002',
    24: 'sch-006',
  }
  const oneOff: Record<number, number> = { 6: 156, 7: 216, 22: 51, 23: 102, 25: 308 }
  const status =
    n <= 15
      ? 'completed'
      : n === 16
        ? 'running'
        : n <= 19
          ? 'queued'
          : n <= 25
            ? 'scheduled'
            : n === 26
              ? 'stopping'
              : n <= 28
                ? 'stopped'
                : 'failed'
  return { status, org, schedule: schedules[n], inHours: oneOff[n] }
}

function targetsOf(n: number, org: string): string[] {
  const id = (k: number) => `tgt-${String(k).padStart(3, '0')}`
  if (org === 'org-002') return [id(46 + (n % 10)), id(46 + ((n + 3) % 10))]
  if (org === 'org-003') return [id(56), id(57)]
  const a = ((n * 2 - 2) % 44) + 1
  return n % 3 === 0 ? [id(a)] : [id(a), id(a + 1)]
}

/** Seeds everything of the scanning domain in a fixed order. */
export function seedScanning(ctx: SandboxContext): void {
  seedTargets(ctx)
  seedScanProfiles(ctx)
  seedScanners(ctx)
  seedPortLists(ctx)
  seedCredentials(ctx)
  seedSchedules(ctx)
  const scans = seedScans(ctx)
  seedResults(ctx, scans)
  spreadFirstSeen(ctx)
  seedExceptions(ctx)
  seedChat(ctx)
}

function seedScans(ctx: SandboxContext): Row[] {
  const now = ctx.now().getTime()
  const rows: Row[] = []
  for (let n = 1; n <= 30; n++) {
    const plan = planOf(n)
    const schedule = plan.schedule ? ctx.db.get('schedules', plan.schedule) : undefined
    const tz = schedule
      ? String(schedule.attributes.time_zone)
      : plan.org === 'org-001'
        ? 'Europe/Berlin'
        : 'UTC'
    const scan = insertRow(ctx, 'scans', plan.org, {
      name: SCAN_NAMES[n - 1],
      description:
        n % 4 === 0
          ? null
          : `${SCAN_NAMES[n - 1]} — ${ctx.rng.pick(['routine', 'compliance', 'after change'])} scan`,
      status: plan.status,
      progress: 0,
      target_ids: targetsOf(n, plan.org),
      scan_profile:
        n === 5 || n === 17 ? 'pci_external' : n % 5 === 0 ? 'web_application' : 'full_and_fast',
      scanner_id:
        plan.org === 'org-001'
          ? n % 2
            ? 'scr-001'
            : 'scr-002'
          : plan.org === 'org-002'
            ? 'scr-005'
            : 'scr-006',
      port_list_id: plan.org === 'org-001' ? (n === 5 ? 'prt-003' : 'prt-001') : null,
      credential_ids: plan.org === 'org-001' && n % 4 === 1 ? ['crd-001'] : [],
      schedule_id: plan.schedule ?? null,
      started_at: null,
      finished_at: null,
      schedule_next_time: plan.inHours ? new Date(now + plan.inHours * HOUR).toISOString() : null,
      in_timezone: tz,
      hosts_count: 0,
      vulnerabilities_count: 0,
      severity_counts: zeroCounts(),
      failure_reason: null,
      created_at: new Date(now - (40 - n) * DAY).toISOString(),
    })
    if (schedule) touch(ctx, 'scans', scan.id, { schedule_next_time: nextScanTime(ctx, scan, now) })
    rows.push(scan)
  }
  return rows
}

function seedResults(ctx: SandboxContext, scans: Row[]): void {
  const now = ctx.now().getTime()
  scans.forEach((scan, i) => {
    const n = i + 1
    const status = scan.attributes.status
    if (status === 'completed') {
      const runs = 1 + (n % 3)
      for (let age = runs - 1; age >= 0; age--) {
        const finished = now - (n * 7 + 2) * HOUR - age * 7 * DAY
        const started = finished - ctx.rng.int(10, 45) * 60_000
        touch(ctx, 'scans', scan.id, { started_at: new Date(started).toISOString() })
        finishRun(ctx, scan, { startedAt: new Date(started), finishedAt: new Date(finished), age })
      }
    } else if (status === 'running') {
      const started = now - scanDuration(ctx) / 10 - 1000
      touch(ctx, 'scans', scan.id, { started_at: new Date(started).toISOString(), progress: 10 })
    } else if (status === 'stopping') {
      touch(
        ctx,
        'scans',
        scan.id,
        { started_at: new Date(now - 90_000).toISOString(), progress: 75 },
        { stop_requested_at: new Date(now).toISOString() },
      )
    } else if (status === 'stopped' || status === 'failed') {
      const started = now - (n - 20) * DAY
      const finished = started + ctx.rng.int(2, 20) * 60_000
      touch(ctx, 'scans', scan.id, {
        started_at: new Date(started).toISOString(),
        finished_at: new Date(finished).toISOString(),
        progress: ctx.rng.int(5, 80),
        failure_reason:
          status === 'failed' ? 'The scanner did not answer (connection timed out)' : null,
      })
      insertRow(ctx, 'scan_runs', String(scan.internal?.organization_id), {
        scan_id: scan.id,
        status,
        started_at: new Date(started).toISOString(),
        finished_at: new Date(finished).toISOString(),
        duration_seconds: Math.round((finished - started) / 1000),
        hosts_count: 0,
        vulnerabilities_count: 0,
        severity_counts: zeroCounts(),
        created_at: new Date(finished).toISOString(),
      })
    }
  })
}

function seedExceptions(ctx: SandboxContext): void {
  const now = ctx.now().getTime()
  const candidates = (scanIds: string[]) =>
    ctx.db
      .list('vulnerabilities')
      .filter(
        (v) =>
          scanIds.includes(String(v.attributes.scan_id)) &&
          v.attributes.severity !== 'info' &&
          isOpen(v),
      )
      .filter((v) => v.id !== 'vul-001' && v.id !== 'vul-002')
      .sort((a, b) => a.id.localeCompare(b.id))
  const ours = candidates(['scn-001', 'scn-002', 'scn-003'])
  const theirs = candidates(['scn-012'])
  const plans: [Row | undefined, string, string, number, string | null, string][] = [
    [
      ours[0],
      'active',
      'accepted_risk',
      90,
      'usr-001',
      'Legacy system, isolated network segment; replacement planned',
    ],
    [
      ours[1],
      'pending',
      'false_positive',
      180,
      null,
      'Version string is patched by the vendor backport',
    ],
    [ours[2], 'expired', 'accepted_risk', -5, 'usr-001', 'Accepted until the maintenance window'],
    [ours[3], 'pending', 'accepted_risk', 60, null, 'Compensating control: WAF rule 1042'],
    [
      ours[4],
      'active',
      'false_positive',
      10,
      'usr-001',
      'Scanner misreads the banner of the load balancer',
    ],
    [theirs[0], 'active', 'accepted_risk', 45, 'usr-001', 'Customer accepted the risk in writing'],
  ]
  for (const [vuln, state, kind, days, activatedBy, reason] of plans) {
    if (!vuln) continue
    insertRow(ctx, 'exceptions', String(vuln.internal?.organization_id), {
      vulnerability_id: vuln.id,
      host_id: vuln.attributes.host_id,
      scan_id: vuln.attributes.scan_id,
      kind,
      reason,
      state,
      expires_at: new Date(now + days * DAY).toISOString(),
      activated_at: activatedBy ? new Date(now - (days < 0 ? 95 : 3) * DAY).toISOString() : null,
      activated_by: activatedBy,
      created_by: 'usr-002',
      vulnerability_title: vuln.attributes.title,
      severity: vuln.attributes.severity,
      host_ip: vuln.attributes.host_ip,
    })
  }
}

function seedChat(ctx: SandboxContext): void {
  const vuln = ctx.db.get('vulnerabilities', 'vul-001')
  if (!vuln) return
  const now = ctx.now().getTime()
  ;['What is the risk of this finding?', 'How do I fix this?'].forEach((question, i) => {
    insertRow(ctx, 'chat_messages', String(vuln.internal?.organization_id), {
      vulnerability_id: vuln.id,
      question,
      answer: prompt(vuln, question),
      user_id: 'usr-002',
      created_at: new Date(now - (2 - i) * HOUR).toISOString(),
    })
  })
}
