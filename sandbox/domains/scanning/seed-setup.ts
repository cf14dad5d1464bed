// Seed data other than scans: targets, scan profiles, scanners, port lists, credentials, schedules.
import { createHash } from 'node:crypto'
import type { SandboxContext } from '../../types'
import { countHosts } from './addresses'
import { addRanges } from './ports'
import { firstRun, parseStart, wallAt } from './schedules'
import { insertRow } from './util'

const DAY = 86_400_000
const ORG_DOMAINS: Record<string, string> = {
  'org-001': 'acme-payments.example',
  'org-002': 'globex-retail.example',
  'org-003': 'initech.example',
}
const HOST_WORDS = ['www', 'api', 'pay', 'mail', 'vpn', 'shop', 'portal', 'cdn', 'sso', 'git']
/** Names of seeded targets (numbered per round); the large seed reuses them. */
export const TARGET_NAMES = [
  'Web front end',
  'Payment API',
  'Mail relay',
  'VPN gateway',
  'Customer portal',
  'Office LAN segment',
  'Database subnet',
  'Build server',
  'Checkout service',
  'Partner SFTP',
  'Monitoring',
  'Staging cluster',
]
const TAGS = ['production', 'pci', 'internal', 'dmz', 'staging'] as const

/** Organization of the n-th target (1-based): most to org-001, some to org-002 and org-003. */
export function targetOrg(n: number): string {
  return n <= 45 ? 'org-001' : n <= 55 ? 'org-002' : 'org-003'
}

/** Seeds tgt-001..tgt-060. */
export function seedTargets(ctx: SandboxContext): void {
  for (let n = 1; n <= 60; n++) {
    const org = targetOrg(n)
    const kind = n % 4
    const address =
      kind === 0
        ? `${HOST_WORDS[n % HOST_WORDS.length]}${n}.${ORG_DOMAINS[org]}`
        : kind === 2
          ? `10.${n}.0.0/29`
          : `${n % 3 === 0 ? '198.51.100' : '192.0.2'}.${n + 10}`
    const tags = [TAGS[n % TAGS.length]]
    if (ctx.rng.next() < 0.3) tags.push(ctx.rng.pick(TAGS.filter((t) => t !== tags[0])))
    insertRow(
      ctx,
      'targets',
      org,
      {
        name: `${TARGET_NAMES[(n - 1) % TARGET_NAMES.length]} ${Math.ceil(n / TARGET_NAMES.length)}`,
        address,
        description:
          n % 3 === 0 ? `Owned by team ${ctx.rng.pick(['Platform', 'Payments', 'IT'])}` : null,
        tags,
        hosts_count: countHosts(address),
        last_scanned_at: null,
        created_at: new Date(ctx.now().getTime() - (90 - n) * DAY).toISOString(),
      },
      {},
    )
  }
}

const PROFILES = [
  [
    'Full and fast',
    'full_and_fast',
    'Every check, ports from the port list, safe checks only',
    true,
    84_210,
  ],
  [
    'Host discovery',
    'discovery',
    'Finds live hosts and open ports without vulnerability checks',
    true,
    12,
  ],
  [
    'PCI DSS external',
    'pci_external',
    'Checks required for a PCI DSS ASV external scan',
    true,
    61_030,
  ],
  ['Web application', 'web_application', 'Web server, TLS and application checks', true, 18_400],
  [
    'Full and very deep',
    'full_deep',
    'Every check including slow and intrusive ones',
    false,
    84_210,
  ],
] as const

/** Seeds the same five scan profiles for each organization. */
export function seedScanProfiles(ctx: SandboxContext): void {
  for (const org of Object.keys(ORG_DOMAINS)) {
    for (const [name, code, description, activated, checks] of PROFILES) {
      insertRow(ctx, 'scan_profiles', org, {
        name,
        code,
        description,
        activated,
        checks_count: checks,
      })
    }
  }
}

/** Seeds scanners scr-001..scr-006. */
export function seedScanners(ctx: SandboxContext): void {
  const verifiedAt = new Date(ctx.now().getTime() - 2 * DAY).toISOString()
  const rows: [string, string, string, string, boolean, 'verified' | 'failed'][] = [
    [
      'org-001',
      'Cloud scanner EU',
      'scanner-eu.scandesk.example',
      'external_scan',
      true,
      'verified',
    ],
    ['org-001', 'Internal scanner Frankfurt', '10.20.0.5', 'internal_scan', true, 'verified'],
    ['org-001', 'PCI scanner', 'pci-scanner.scandesk.example', 'pci_scan', false, 'verified'],
    [
      'org-001',
      'Branch office scanner',
      'branch-scanner.invalid',
      'internal_scan',
      false,
      'failed',
    ],
    [
      'org-002',
      'Globex scanner',
      'scanner.globex-retail.example',
      'external_scan',
      true,
      'verified',
    ],
    ['org-003', 'Initech scanner', '10.99.0.10', 'internal_scan', true, 'verified'],
  ]
  for (const [org, name, host, appType, activated, verification] of rows) {
    insertRow(ctx, 'scanners', org, {
      name,
      description: null,
      host,
      port: 8443,
      app_type: appType,
      activated,
      version: verification === 'verified' ? '9.4.2' : null,
      verification_status: verification,
      verification_message:
        verification === 'verified' ? 'Scanner answered and is up to date' : 'Connection timed out',
      last_verified_at: verifiedAt,
    })
  }
}

type R = [number, number, 'tcp' | 'udp']
/** Seeds port lists prt-001..prt-006 (ranges rng-001…). */
export function seedPortLists(ctx: SandboxContext): void {
  const lists: [string, string, string, boolean, R[]][] = [
    ['org-001', 'All TCP ports', 'external_scan', true, [[1, 65535, 'tcp']]],
    [
      'org-001',
      'Top TCP and common UDP',
      'internal_scan',
      true,
      [
        [1, 1024, 'tcp'],
        [3306, 3306, 'tcp'],
        [3389, 3389, 'tcp'],
        [53, 53, 'udp'],
        [161, 161, 'udp'],
      ],
    ],
    [
      'org-001',
      'PCI external',
      'pci_scan',
      true,
      [
        [21, 23, 'tcp'],
        [25, 25, 'tcp'],
        [80, 80, 'tcp'],
        [443, 443, 'tcp'],
        [3306, 3306, 'tcp'],
        [8080, 8080, 'tcp'],
        [53, 53, 'udp'],
      ],
    ],
    [
      'org-001',
      'Web ports',
      'external_scan',
      false,
      [
        [80, 80, 'tcp'],
        [443, 443, 'tcp'],
        [8000, 8999, 'tcp'],
      ],
    ],
    ['org-002', 'Globex standard', 'external_scan', true, [[1, 1024, 'tcp']]],
    ['org-003', 'Initech internal', 'internal_scan', true, [[1, 10000, 'tcp']]],
  ]
  for (const [org, name, appType, activated, ranges] of lists) {
    const withIds = addRanges(
      ctx,
      [],
      ranges.map(([start, end, protocol]) => ({ start, end, protocol })),
    )
    insertRow(ctx, 'port_lists', org, {
      name,
      description: null,
      app_type: appType,
      activated,
      ...withIds,
      synced_at: activated ? new Date(ctx.now().getTime() - DAY).toISOString() : null,
    })
  }
}

/** Seeds credentials crd-001..crd-005; only a fingerprint of each secret is kept. */
export function seedCredentials(ctx: SandboxContext): void {
  const rows: [string, string, string, string | null][] = [
    ['org-001', 'Linux servers', 'ssh_password', 'scan-svc'],
    ['org-001', 'Deploy key', 'ssh_key', 'deploy'],
    ['org-001', 'Domain scan account', 'windows_smb', 'ACME\\svc-scan'],
    ['org-001', 'Network devices', 'snmp_community', null],
    ['org-002', 'Globex Linux', 'ssh_password', 'audit'],
  ]
  for (const [org, name, kind, username] of rows) {
    const at = new Date(ctx.now().getTime() - 30 * DAY).toISOString()
    insertRow(
      ctx,
      'credentials',
      org,
      { name, description: null, kind, username, has_secret: true, secret_updated_at: at },
      { secret_fingerprint: fingerprint(`${name}:${ctx.rng.next()}`) },
    )
  }
}

/** SHA-256 fingerprint of a secret (the secret itself is never stored). */
export function fingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** `YYYY-MM-DDTHH:mm`: the date `days` from now in `tz`, at hh:mm local time. */
function localStart(ctx: SandboxContext, days: number, tz: string, hh: number, mm: number): string {
  const w = wallAt(ctx.now().getTime() + days * DAY, tz)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(hh)}:${two(mm)}`
}

/** Seeds schedules sch-001..sch-006 (starts relative to the sandbox clock). */
export function seedSchedules(ctx: SandboxContext): void {
  const rows: [string, string, string, string, number, number, number][] = [
    ['org-001', 'Weekly Monday night', 'weekly', 'Europe/Berlin', -20, 2, 0],
    ['org-001', 'Daily early morning', 'daily', 'UTC', -60, 3, 30],
    ['org-001', 'Monthly reporting run', 'monthly', 'America/New_York', 5, 22, 0],
    ['org-001', 'Quarterly PCI scan', 'quarterly', 'Asia/Tokyo', 11, 1, 0],
    ['org-001', 'Maintenance window', 'once', 'Europe/London', 10, 23, 0],
    ['org-002', 'Globex weekly', 'weekly', 'America/Chicago', -3, 4, 0],
  ]
  for (const [org, name, frequency, tz, days, hh, mm] of rows) {
    const start_at = localStart(ctx, days, tz, hh, mm)
    const next = firstRun(
      { frequency: frequency as 'weekly', start: parseStart(start_at, tz)!, timeZone: tz },
      ctx.now().getTime(),
    )
    insertRow(ctx, 'schedules', org, {
      name,
      description: null,
      frequency,
      start_at,
      time_zone: tz,
      next_run_at: next === null ? null : new Date(next).toISOString(),
    })
  }
}
