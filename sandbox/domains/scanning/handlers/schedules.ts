// Schedule handlers: CRUD that keeps next_run_at and the scans' next times right, and date math.
import type { Handlers, Row, SandboxContext, SandboxRequest } from '../../../types'
import { nextScanTime } from '../scans'
import { firstRun, localText, parseStart, runsFrom, type Frequency, type Rule } from '../schedules'
import { insertRow, one, orgOf, touch, visible, visibleRows } from '../util'

type RuleBody = { frequency: Frequency; start_at: string; time_zone: string }

/** Parses a rule body; 422 on a start date that does not exist. */
function ruleFrom(ctx: SandboxContext, b: RuleBody): Rule {
  const start = parseStart(b.start_at, b.time_zone)
  if (!start) ctx.invalid({ start_at: ['is not a valid date and time'] })
  return { frequency: b.frequency, start, timeZone: b.time_zone }
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())
const dateOf = (ms: number, tz: string) => ({
  at: new Date(ms).toISOString(),
  local: localText(ms, tz),
})

/** Creates a schedule for the caller's organization (used by the wizard too). */
export function createSchedule(
  ctx: SandboxContext,
  req: SandboxRequest,
  b: RuleBody & { name: string; description?: string },
): Row {
  const rule = ruleFrom(ctx, b)
  return insertRow(ctx, 'schedules', orgOf(req), {
    name: b.name,
    description: b.description ?? null,
    frequency: b.frequency,
    start_at: b.start_at,
    time_zone: b.time_zone,
    next_run_at: isoOrNull(firstRun(rule, ctx.now().getTime())),
  })
}

/** Scans that follow a schedule. */
const scansOf = (ctx: SandboxContext, scheduleId: string) =>
  ctx.db.list('scans').filter((s) => s.attributes.schedule_id === scheduleId)

/** Detaches a schedule from its scans: scheduled scans go back to queued. */
function detach(ctx: SandboxContext, scheduleId: string): void {
  for (const scan of scansOf(ctx, scheduleId)) {
    touch(ctx, 'scans', scan.id, {
      schedule_id: null,
      schedule_next_time: null,
      ...(scan.attributes.status === 'scheduled' ? { status: 'queued' } : {}),
    })
  }
}

/** Handlers of schedule create/update/delete/bulk delete and the two date calculations. */
export const scheduleHandlers: Handlers = {
  'schedules.create': (req, ctx) => one(req, createSchedule(ctx, req, req.body), 201),

  'schedules.update': (req, ctx) => {
    const row = visible(ctx, req, 'schedules', req.path.id)
    // A stored schedule holds a valid rule; the body overrides some of its fields.
    const stored = row.attributes as RuleBody
    const merged: RuleBody = { ...stored, ...req.body }
    const rule = ruleFrom(ctx, merged)
    const updated = touch(ctx, 'schedules', row.id, {
      ...req.body,
      next_run_at: isoOrNull(firstRun(rule, ctx.now().getTime())),
    })
    for (const scan of scansOf(ctx, row.id)) {
      touch(ctx, 'scans', scan.id, {
        in_timezone: merged.time_zone,
        schedule_next_time: nextScanTime(ctx, scan, ctx.now().getTime() - 1),
      })
    }
    return one(req, updated)
  },

  'schedules.delete': (req, ctx) => {
    const row = visible(ctx, req, 'schedules', req.path.id)
    detach(ctx, row.id)
    ctx.db.remove('schedules', row.id)
    return { status: 200, body: { data: { id: row.id, deleted: true } } }
  },

  'schedules.bulk_delete': (req, ctx) => {
    const ids = req.body.ids
    const rows = visibleRows(ctx, req, 'schedules')
    const deleted: string[] = []
    for (const id of ids) {
      if (rows.some((r) => r.id === id) && !deleted.includes(id)) {
        detach(ctx, id)
        ctx.db.remove('schedules', id)
        deleted.push(id)
      }
    }
    return {
      status: 200,
      body: { data: { deleted, not_found: ids.filter((id) => !deleted.includes(id)) } },
    }
  },

  'schedules.first_schedule_date': (req, ctx) => {
    const b = req.body
    const first = firstRun(ruleFrom(ctx, b), ctx.now().getTime())
    return {
      status: 200,
      body: {
        data: { time_zone: b.time_zone, first: first === null ? null : dateOf(first, b.time_zone) },
      },
    }
  },

  'schedules.next_schedule_dates': (req, ctx) => {
    const b = req.body
    const after = b.after ? Date.parse(b.after) : ctx.now().getTime()
    const runs = runsFrom(ruleFrom(ctx, b), after, b.count ?? 5, true)
    return {
      status: 200,
      body: { data: { time_zone: b.time_zone, dates: runs.map((ms) => dateOf(ms, b.time_zone)) } },
    }
  },
}
