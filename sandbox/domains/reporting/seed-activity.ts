import type { SandboxContext } from '../../types'
import { notify, recordAudit, recordDelivery } from './activity'
import { ago } from './seed-reports'

const SEED_SECRET_1 = 'whsec-sandbox-siem-7f3a9c2e'
const SEED_SECRET_2 = 'whsec-sandbox-tickets-51d0b8'

/** Organization of a user as the identity domain stored it, or `fallback`. */
export function userOrg(ctx: SandboxContext, userId: string, fallback: string): string {
  const row = ctx.db.get('users', userId)
  const org = row?.internal?.organization_id ?? row?.attributes.organization_id
  return typeof org === 'string' ? org : fallback
}

/** Seeds webhooks whk-001…003 (org-001) and 24 deliveries (dlv-001… belong to whk-001). */
export function seedWebhooks(ctx: SandboxContext): void {
  const specs = [
    {
      name: 'SIEM forwarder',
      url: 'https://siem.acme-payments.example/hooks/scandesk',
      events: ['scan.completed', 'report.ready', 'vulnerability.detected'],
      active: true,
      secret: SEED_SECRET_1,
      deliveries: 12,
    },
    {
      name: 'Ticketing',
      url: 'https://tickets.acme-payments.example/api/scandesk',
      events: ['scan.failed', 'exception.expiring'],
      active: false,
      secret: SEED_SECRET_2,
      deliveries: 5,
    },
    {
      name: 'Chat alerts',
      url: 'https://chat-unreachable.acme-payments.example/hook',
      events: ['scan.started', 'scan.completed', 'saq.approved'],
      active: true,
      secret: undefined,
      deliveries: 7,
    },
  ]
  specs.forEach((s, w) => {
    const created = ago(ctx, 40 - w * 3)
    const hook = ctx.db.insert('webhooks', {
      id: ctx.db.nextId('whk'),
      type: 'webhook',
      attributes: {
        name: s.name,
        url: s.url,
        events: s.events,
        description: null,
        active: s.active,
        has_secret: s.secret !== undefined,
        last_delivery_at: null,
        last_delivery_status: null,
        created_at: created,
        updated_at: created,
      },
      internal: { organization_id: 'org-001', secret: s.secret },
    })
    for (let k = 0; k < s.deliveries; k++) {
      const event = s.events[k % s.events.length]
      const scan = `scn-${String((k % 15) + 1).padStart(3, '0')}`
      // whk-001: every fourth delivery failed (500 or timeout); whk-003: unreachable.
      const status =
        w === 2
          ? null
          : w === 0 && k % 4 === 3
            ? k % 8 === 3
              ? 500
              : null
            : k % 5 === 4
              ? 410
              : 200
      recordDelivery(ctx, ctx.db.get('webhooks', hook.id)!, {
        event,
        payload: event.startsWith('report')
          ? { report_id: `rpt-${String((k % 10) + 1).padStart(3, '0')}`, format: 'pdf' }
          : { scan_id: scan },
        deliveredAt: ago(ctx, 14 - k * (14 / s.deliveries)),
        responseStatus: status,
        durationMs: status === null ? 10_000 : ctx.rng.int(40, 850),
        attempt: status === 200 ? 1 : ctx.rng.int(1, 3),
      })
    }
  })
}

const ACTIONS: [string, string | null][] = [
  ['user.sign_in', null],
  ['user.sign_in', null],
  ['user.sign_in', null],
  ['scan.start', 'scan'],
  ['scan.start', 'scan'],
  ['report.download', 'report'],
  ['report.generate', 'report'],
  ['target.create', 'target'],
  ['target.update', 'target'],
  ['exception.create', 'exception'],
  ['user.sign_out', null],
  ['user.sign_in_failed', null],
  ['scan.stop', 'scan'],
  ['saq.create', 'saq'],
  ['webhook.update', 'webhook'],
]

const RESOURCE_PREFIX: Record<string, string> = {
  scan: 'scn',
  report: 'rpt',
  target: 'tgt',
  exception: 'exc',
  saq: 'saq',
  webhook: 'whk',
}

/**
 * How many records of each type the seeded history names (`<prefix>-001` on): the seeded ones,
 * and past them a few deleted since (exceptions exc-007 and exc-008, webhook whk-004, SAQs saq-009
 * and saq-010).
 */
const RESOURCE_POOL: Record<string, number> = {
  scan: 15,
  report: 10,
  target: 15,
  exception: 8,
  saq: 10,
  webhook: 4,
}

/**
 * Marks every id the seeded history names as used (the audit log's resources, the notifications'
 * records), so a record created later never takes the id of one the history says existed: the
 * seeded `exception.create` of `exc-007` stays that (deleted) exception, and the first exception
 * a user creates is `exc-009`. Also run on a loaded state (upgrade).
 */
export function reserveReferencedIds(ctx: SandboxContext): void {
  for (const collection of ['audit_events', 'notifications'])
    for (const row of ctx.db.list(collection)) {
      const id = row.attributes.resource_id
      if (typeof id === 'string') ctx.db.reserveId(id)
    }
}

/** Seeds 220 audit events over the last 30 days, oldest first (aud-001 is org-001's). */
export function seedAudit(ctx: SandboxContext): void {
  const total = 220
  const actors001 = ['usr-001', 'usr-002', 'usr-001', 'usr-002', 'usr-003']
  for (let i = 0; i < total; i++) {
    const org = i % 11 === 10 ? 'org-002' : 'org-001'
    const actor = org === 'org-002' ? 'usr-006' : actors001[i % actors001.length]
    const [action, resourceType] = ACTIONS[(i * 7) % ACTIONS.length]
    // Each action moves on to another record every round of the actions (an exception is not
    // created fifteen times); ids past the seeded records are of records deleted since.
    const pool = resourceType ? RESOURCE_POOL[resourceType] : 1
    const n = ((i * 13 + Math.floor(i / ACTIONS.length) * 2) % pool) + 1
    const resourceId = resourceType
      ? `${RESOURCE_PREFIX[resourceType]}-${String(n).padStart(3, '0')}`
      : null
    recordAudit(ctx, {
      organizationId: org,
      action,
      actorId: actor,
      resourceType: resourceType ?? (action.startsWith('user.') ? 'user' : null),
      resourceId: resourceId ?? (action.startsWith('user.') ? actor : null),
      ipAddress: `198.51.100.${20 + (i % 30)}`,
      userAgent: i % 3 === 0 ? 'ScanDesk/0.1 (Electron)' : 'Mozilla/5.0 (portal)',
      details: action === 'user.sign_in_failed' ? { reason: 'wrong password' } : null,
      occurredAt: ago(ctx, 30 - (i * 30) / total - ctx.rng.int(0, 90) / 1440),
    })
  }
}

const NOTES: {
  kind: string
  title: string
  body: string
  level: 'info' | 'warning' | 'critical'
  rt?: string
  rp?: string
}[] = [
  {
    kind: 'scan_completed',
    title: 'Scan completed',
    body: 'The scan finished; findings are ready to review.',
    level: 'info',
    rt: 'scan',
    rp: 'scn',
  },
  {
    kind: 'report_ready',
    title: 'Report ready',
    body: 'The report file can now be downloaded.',
    level: 'info',
    rt: 'report',
    rp: 'rpt',
  },
  {
    kind: 'vulnerability_found',
    title: 'Critical vulnerability found',
    body: 'A critical finding needs attention.',
    level: 'critical',
    rt: 'scan',
    rp: 'scn',
  },
  {
    kind: 'scan_failed',
    title: 'Scan failed',
    body: 'The scanner could not reach the target.',
    level: 'warning',
    rt: 'scan',
    rp: 'scn',
  },
  {
    kind: 'exception_expiring',
    title: 'Exception expires soon',
    body: 'An accepted risk expires within 7 days.',
    level: 'warning',
  },
  {
    kind: 'saq_status',
    title: 'SAQ approved',
    body: 'Your self-assessment questionnaire was approved.',
    level: 'info',
    rt: 'saq',
    rp: 'saq',
  },
  {
    kind: 'system',
    title: 'Scheduled maintenance',
    body: 'The service will be read-only on Sunday 02:00-03:00 UTC.',
    level: 'info',
  },
]

/**
 * Seeds 40 notifications: ntf-001…020 for usr-001 (ntf-001…003 unread and unseen), ntf-021…036
 * for usr-002, ntf-037…040 for usr-003; older ones are mostly read.
 */
export function seedNotifications(ctx: SandboxContext): void {
  for (let i = 0; i < 40; i++) {
    const user = i < 20 ? 'usr-001' : i < 36 ? 'usr-002' : 'usr-003'
    const k = i < 20 ? i : i < 36 ? i - 20 : i - 36
    const note = NOTES[i % NOTES.length]
    const read = k >= 6 && k % 3 !== 0
    const seen = read || (k >= 4 && k % 2 === 0)
    notify(ctx, {
      userId: user,
      organizationId: userOrg(ctx, user, 'org-001'),
      kind: note.kind,
      title: note.title,
      body: note.body,
      level: note.level,
      resourceType: note.rt,
      resourceId: note.rp ? `${note.rp}-${String((i % 9) + 1).padStart(3, '0')}` : undefined,
      createdAt: ago(ctx, k * 0.9 + 0.05),
      read,
      seen,
    })
  }
}
