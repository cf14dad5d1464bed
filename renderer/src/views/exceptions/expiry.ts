// An exception's expiry as people pick it (a calendar day) and as the service takes it (an
// instant), and when an exception counts as expiring soon (see docs/decisions.md).

/** Active or pending exceptions expiring within this many days are flagged (the service's own count). */
export const EXPIRING_SOON_DAYS = 30

const DAY_MS = 86_400_000

/** The instant an expiry day ends on this computer (23:59:59 local time), as ISO text; '' for none. */
export function endOfDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!m) return ''
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59)
  return Number.isNaN(date.getTime()) ? '' : date.toISOString()
}

/** The local calendar day (YYYY-MM-DD) of an instant; '' for none or an odd value. */
export function dayOf(instant: unknown): string {
  if (typeof instant !== 'string' || !instant) return ''
  const date = new Date(instant)
  if (Number.isNaN(date.getTime())) return ''
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** The first day an expiry may be on: tomorrow (an exception ending today protects nothing). */
export function firstExpiryDay(nowMs: number): string {
  const now = new Date(nowMs)
  return dayOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).toISOString())
}

/** Why an expiry instant cannot be sent, or null when it is on a later day than today. */
export function expiryProblem(instant: unknown, nowMs: number): string | null {
  const at = typeof instant === 'string' ? Date.parse(instant) : NaN
  if (Number.isNaN(at)) return 'Pick the day the exception ends.'
  if (dayOf(instant) < firstExpiryDay(nowMs)) return 'Pick a day after today.'
  return null
}

/** Calendar days on this computer from the day of `fromMs` to the day of `toMs`. */
function calendarDays(fromMs: number, toMs: number): number {
  const day = (ms: number) => {
    const d = new Date(ms)
    return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate())
  }
  return Math.round((day(toMs) - day(fromMs)) / DAY_MS)
}

/**
 * Calendar days until an exception in force (or waiting to be) expires, when that is within
 * EXPIRING_SOON_DAYS (0: today); null for expired ones, far ones and odd values.
 */
export function daysLeft(attributes: Record<string, unknown>, nowMs: number): number | null {
  if (attributes.state === 'expired') return null
  const at = typeof attributes.expires_at === 'string' ? Date.parse(attributes.expires_at) : NaN
  if (Number.isNaN(at) || at <= nowMs) return null
  const days = calendarDays(nowMs, at)
  return days <= EXPIRING_SOON_DAYS ? days : null
}

/** The label of an expiring-soon row ("Expires today", "Expires tomorrow", "Expires in 3 days"). */
export function expiresLabel(days: number): string {
  if (days <= 0) return 'Expires today'
  if (days === 1) return 'Expires tomorrow'
  return `Expires in ${days} days`
}
