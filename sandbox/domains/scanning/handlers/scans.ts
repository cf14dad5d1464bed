// Scan CRUD, start/stop and the wizard.
import type { Handlers, Row, SandboxContext, SandboxRequest } from '../../../types'
import { countHosts, parseAddress } from '../addresses'
import { zeroCounts } from '../results'
import { nextScanTime, startScan, stopScan } from '../scans'
import { createSchedule } from './schedules'
import { insertRow, iso, one, orgOf, touch, visible, visibleRows } from '../util'

type Settings = {
  target_ids?: string[]
  scan_profile?: string
  scanner_id?: string | null
  port_list_id?: string | null
  credential_ids?: string[]
  schedule_id?: string | null
  in_timezone?: string
}

/** Checks that every referenced row exists for the caller (422 with the field otherwise). */
function checkSettings(ctx: SandboxContext, req: SandboxRequest, s: Settings): void {
  const errors: Record<string, string[]> = {}
  const exists = (collection: string, id: string) =>
    visibleRows(ctx, req, collection).find((r) => r.id === id)
  for (const id of s.target_ids ?? []) {
    if (!exists('targets', id)) (errors.target_ids ??= []).push(`unknown target ${id}`)
  }
  if (s.scan_profile !== undefined) {
    const profile = visibleRows(ctx, req, 'scan_profiles').find(
      (p) => p.attributes.code === s.scan_profile && p.internal?.organization_id === orgOf(req),
    )
    if (!profile) errors.scan_profile = [`unknown scan profile ${s.scan_profile}`]
    else if (!profile.attributes.activated)
      errors.scan_profile = [`scan profile ${s.scan_profile} is not activated`]
  }
  if (s.scanner_id) {
    const scanner = exists('scanners', s.scanner_id)
    if (!scanner) errors.scanner_id = [`unknown scanner ${s.scanner_id}`]
    else if (!scanner.attributes.activated)
      errors.scanner_id = [`scanner ${s.scanner_id} is not activated`]
  }
  if (s.port_list_id && !exists('port_lists', s.port_list_id)) {
    errors.port_list_id = [`unknown port list ${s.port_list_id}`]
  }
  for (const id of s.credential_ids ?? []) {
    if (!exists('credentials', id)) (errors.credential_ids ??= []).push(`unknown credential ${id}`)
  }
  if (s.schedule_id && !exists('schedules', s.schedule_id)) {
    errors.schedule_id = [`unknown schedule ${s.schedule_id}`]
  }
  if (Object.keys(errors).length) ctx.invalid(errors)
}

/** Creates a scan row: scheduled when it has a schedule, else queued. */
function insertScan(
  ctx: SandboxContext,
  req: SandboxRequest,
  b: Settings & { name: string; description?: string },
): Row {
  const schedule = b.schedule_id ? ctx.db.get('schedules', b.schedule_id) : undefined
  const scan = insertRow(ctx, 'scans', orgOf(req), {
    name: b.name,
    description: b.description ?? null,
    status: schedule ? 'scheduled' : 'queued',
    progress: 0,
    target_ids: b.target_ids ?? [],
    scan_profile: b.scan_profile,
    scanner_id: b.scanner_id ?? null,
    port_list_id: b.port_list_id ?? null,
    credential_ids: b.credential_ids ?? [],
    schedule_id: schedule?.id ?? null,
    started_at: null,
    finished_at: null,
    schedule_next_time: null,
    in_timezone: schedule?.attributes.time_zone ?? b.in_timezone ?? 'UTC',
    hosts_count: 0,
    vulnerabilities_count: 0,
    severity_counts: zeroCounts(),
    failure_reason: null,
  })
  if (schedule) {
    touch(ctx, 'scans', scan.id, {
      schedule_next_time: nextScanTime(ctx, scan, ctx.now().getTime() - 1),
    })
  }
  return scan
}

const busy = (scan: Row) =>
  scan.attributes.status === 'running' || scan.attributes.status === 'stopping'

/** Removes a scan with its hosts, vulnerabilities, runs and the exceptions on them. */
function removeScan(ctx: SandboxContext, scan: Row): void {
  const vulns = new Set<string>()
  for (const v of ctx.db.list('vulnerabilities')) {
    if (v.attributes.scan_id === scan.id) {
      vulns.add(v.id)
      ctx.db.remove('vulnerabilities', v.id)
    }
  }
  for (const e of ctx.db.list('exceptions')) {
    if (vulns.has(String(e.attributes.vulnerability_id))) ctx.db.remove('exceptions', e.id)
  }
  for (const coll of ['hosts', 'scan_runs']) {
    for (const r of ctx.db.list(coll))
      if (r.attributes.scan_id === scan.id) ctx.db.remove(coll, r.id)
  }
  ctx.db.remove('scans', scan.id)
}

/** Handlers of scan CRUD, start, stop and the wizard. */
export const scanHandlers: Handlers = {
  'scans.create': (req, ctx) => {
    const b = req.body
    checkSettings(ctx, req, b)
    return one(req, insertScan(ctx, req, b))
  },

  'scans.update': (req, ctx) => {
    const scan = visible(ctx, req, 'scans', req.path.id)
    const b = req.body
    const settings = Object.keys(b).filter((k) => k !== 'name' && k !== 'description')
    if (settings.length && busy(scan)) {
      ctx.error(
        409,
        `Scan ${scan.id} is ${String(scan.attributes.status)}; stop it before changing ${settings.join(', ')}`,
      )
    }
    checkSettings(ctx, req, b)
    const patch: Record<string, unknown> = { ...b }
    if ('schedule_id' in b) {
      const schedule = b.schedule_id ? ctx.db.get('schedules', b.schedule_id) : undefined
      const status = scan.attributes.status
      if (schedule) {
        patch.in_timezone = schedule.attributes.time_zone
        if (status === 'queued') patch.status = 'scheduled'
      } else {
        patch.schedule_next_time = null
        if (status === 'scheduled') patch.status = 'queued'
      }
    }
    const updated = touch(ctx, 'scans', scan.id, patch)
    if ('schedule_id' in b && b.schedule_id) {
      touch(ctx, 'scans', scan.id, {
        schedule_next_time: nextScanTime(ctx, updated, ctx.now().getTime() - 1),
      })
    }
    return one(req, updated)
  },

  'scans.delete': (req, ctx) => {
    const scan = visible(ctx, req, 'scans', req.path.id)
    if (busy(scan))
      ctx.error(
        409,
        `Scan ${scan.id} is ${String(scan.attributes.status)}; stop it before deleting it`,
      )
    removeScan(ctx, scan)
    return { status: 200, body: { data: { id: scan.id, deleted: true } } }
  },

  'scans.bulk_delete': (req, ctx) => {
    const ids = req.body.ids
    const rows = visibleRows(ctx, req, 'scans')
    const found = ids.map((id) => rows.find((r) => r.id === id)).filter((r): r is Row => !!r)
    const running = found.filter(busy).map((r) => r.id)
    if (running.length)
      ctx.error(409, `Stop these scans before deleting them: ${running.join(', ')}`)
    found.forEach((scan) => removeScan(ctx, scan))
    const deleted = [...new Set(found.map((r) => r.id))]
    const notFound = ids.filter((id) => !deleted.includes(id))
    return { status: 200, body: { data: { deleted, not_found: notFound } } }
  },

  'scans.start': (req, ctx) =>
    one(
      req,
      startScan(ctx, visible(ctx, req, 'scans', req.path.id), ctx.now(), req.caller?.userId),
    ),

  'scans.stop': (req, ctx) => one(req, stopScan(ctx, visible(ctx, req, 'scans', req.path.id))),

  'scans.create_from_wizard': (req, ctx) => {
    const b = req.body
    checkSettings(ctx, req, b)
    ;(b.new_targets ?? []).forEach((t, i) => {
      const entry = parseAddress(t.address)
      if (!entry.ok) ctx.invalid({ [`new_targets.${i}.address`]: [entry.problem] })
    })
    const targetIds = [...(b.target_ids ?? [])]
    for (const t of b.new_targets ?? []) {
      const created = ctx.db.get('targets', createTarget(ctx, req, t.name ?? t.address, t.address))
      targetIds.push(created!.id)
    }
    const schedule = b.schedule
      ? createSchedule(ctx, req, { name: `${b.name} schedule`, ...b.schedule })
      : undefined
    let scan = insertScan(ctx, req, {
      ...b,
      target_ids: targetIds,
      schedule_id: schedule?.id ?? null,
      in_timezone: b.schedule?.time_zone,
    })
    if (b.start_now) scan = startScan(ctx, scan, ctx.now(), req.caller?.userId)
    return one(req, scan, 201)
  },
}

/** Creates a target owned by the caller's organization; returns its id. */
function createTarget(
  ctx: SandboxContext,
  req: SandboxRequest,
  name: string,
  address: string,
): string {
  return insertRow(ctx, 'targets', orgOf(req), {
    name,
    address,
    description: null,
    tags: [],
    hosts_count: countHosts(address),
    last_scanned_at: null,
    created_at: iso(ctx),
  }).id
}
