// The scan state machine and the tick that moves running scans forward with the sandbox clock.
import { STARTABLE_SCAN_STATES, type ScanStatus } from '@contract/catalog/scans'
import type { Row, SandboxContext } from '../../types'
import { reportRun } from '../reporting/run-reports'
import { announceRunEnd } from './events'
import { finishRun, recordRun } from './results'
import { nextRunAfter, parseStart, type Frequency, type Rule } from './schedules'
import { touch } from './util'

/** Sandbox-clock time a scan run takes from start to completion (`scanDurationMs` option). */
export const scanDuration = (ctx: SandboxContext): number => ctx.options.scanDurationMs

/** Sandbox time a scan spends in 'stopping' before it is 'stopped'. */
export const STOPPING_MS = 30 * 1000

const statusOf = (scan: Row): ScanStatus => scan.attributes.status as ScanStatus

/** Starts a scan now: queued/scheduled/stopped/failed/completed → running, else 409. */
export function startScan(
  ctx: SandboxContext,
  scan: Row,
  at: Date = ctx.now(),
  startedBy: string | null = null,
): Row {
  const status = statusOf(scan)
  if (!STARTABLE_SCAN_STATES.includes(status)) {
    ctx.error(
      409,
      `Scan ${scan.id} is ${status}; it can be started only when queued, scheduled, stopped, failed or completed`,
    )
  }
  // Who started the run by hand (null: its schedule), told when it ends (events.ts).
  return touch(
    ctx,
    'scans',
    scan.id,
    {
      status: 'running',
      progress: 0,
      started_at: at.toISOString(),
      finished_at: null,
      failure_reason: null,
    },
    { started_by: startedBy },
  )
}

/** Stops a running scan: running → stopped (a partial run is recorded), else 409. */
export function stopScan(ctx: SandboxContext, scan: Row): Row {
  const status = statusOf(scan)
  if (status !== 'running') {
    ctx.error(409, `Scan ${scan.id} is ${status}; only a running scan can be stopped`)
  }
  const now = ctx.now()
  const updated = touch(ctx, 'scans', scan.id, {
    status: 'stopped',
    finished_at: now.toISOString(),
  })
  recordStopped(ctx, updated, now)
  return updated
}

function recordStopped(ctx: SandboxContext, scan: Row, at: Date): void {
  const started = String(scan.attributes.started_at ?? at.toISOString())
  recordRun(ctx, scan, String(scan.internal?.organization_id ?? 'org-001'), {
    status: 'stopped',
    started,
    finished: at.toISOString(),
    duration: Math.max(0, Math.round((at.getTime() - Date.parse(started)) / 1000)),
    vulns: [],
    hosts: 0,
  })
}

/** The repetition rule of a schedule row. */
export function ruleOf(schedule: Row): Rule | null {
  const a = schedule.attributes
  const tz = String(a.time_zone)
  const start = parseStart(String(a.start_at), tz)
  return start ? { frequency: a.frequency as Frequency, start, timeZone: tz } : null
}

/** The next run of the scan's schedule strictly after `afterMs`, as ISO text, or null. */
export function nextScanTime(ctx: SandboxContext, scan: Row, afterMs: number): string | null {
  const id = scan.attributes.schedule_id
  const schedule = typeof id === 'string' ? ctx.db.get('schedules', id) : undefined
  const rule = schedule ? ruleOf(schedule) : null
  const next = rule ? nextRunAfter(rule, afterMs) : null
  return next === null ? null : new Date(next).toISOString()
}

/**
 * Advances time-driven state: due scheduled scans start, running scans progress and complete
 * after the scan duration (a completed run leaves its report: reporting/run-reports.ts),
 * stopping scans stop, active exceptions past their expiry expire and schedules move their next
 * run forward. Writes only what changed.
 */
export function tick(ctx: SandboxContext): void {
  const now = ctx.now()
  const nowMs = now.getTime()
  const duration = scanDuration(ctx)
  for (const scan of ctx.db.list('scans')) {
    const a = scan.attributes
    const due = typeof a.schedule_next_time === 'string' ? Date.parse(a.schedule_next_time) : NaN
    if (due <= nowMs && STARTABLE_SCAN_STATES.includes(statusOf(scan))) {
      touch(ctx, 'scans', scan.id, { schedule_next_time: nextScanTime(ctx, scan, nowMs) })
      startScan(ctx, scan, new Date(due))
    }
    if (statusOf(scan) === 'running') {
      const started = Date.parse(String(scan.attributes.started_at))
      const elapsed = nowMs - started
      if (elapsed >= duration) {
        const run = finishRun(ctx, scan, {
          startedAt: new Date(started),
          finishedAt: new Date(started + duration),
        })
        const ended = ctx.db.get('scans', scan.id) ?? scan
        reportRun(ctx, ended, run)
        announceRunEnd(ctx, ended)
      } else {
        const progress = Math.max(0, Math.floor((elapsed * 100) / duration))
        if (progress !== scan.attributes.progress) touch(ctx, 'scans', scan.id, { progress })
      }
    } else if (statusOf(scan) === 'stopping') {
      const stopAt =
        Date.parse(String(scan.internal?.stop_requested_at ?? now.toISOString())) + STOPPING_MS
      if (stopAt <= nowMs) {
        const updated = touch(ctx, 'scans', scan.id, {
          status: 'stopped',
          finished_at: new Date(stopAt).toISOString(),
        })
        recordStopped(ctx, updated, new Date(stopAt))
      }
    }
  }
  for (const exc of ctx.db.list('exceptions')) {
    const a = exc.attributes
    if (a.state === 'active' && Date.parse(String(a.expires_at)) <= nowMs) {
      touch(ctx, 'exceptions', exc.id, { state: 'expired' })
    }
  }
  for (const schedule of ctx.db.list('schedules')) {
    const next = schedule.attributes.next_run_at
    if (typeof next === 'string' && Date.parse(next) <= nowMs) {
      const rule = ruleOf(schedule)
      const after = rule ? nextRunAfter(rule, nowMs) : null
      touch(ctx, 'schedules', schedule.id, {
        next_run_at: after === null ? null : new Date(after).toISOString(),
      })
    }
  }
}
