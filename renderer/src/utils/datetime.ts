/** Formats an instant in a named time zone; falls back to the local zone for unknown names. */
export function formatInZone(iso: string, timeZone: string, locale?: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const options: Intl.DateTimeFormatOptions = {
    dateStyle: 'medium',
    timeStyle: 'short',
  }
  try {
    const text = new Intl.DateTimeFormat(locale, { ...options, timeZone }).format(date)
    return `${text} (${timeZone})`
  } catch {
    return new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(date)
  }
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600e3],
  ['month', 30 * 24 * 3600e3],
  ['week', 7 * 24 * 3600e3],
  ['day', 24 * 3600e3],
  ['hour', 3600e3],
  ['minute', 60e3],
]

/** "in 3 days", "2 hours ago", "now": the largest whole unit between `iso` and `now`. */
export function relativeTime(iso: string, now: number = Date.now(), locale = 'en'): string {
  const at = new Date(iso).getTime()
  if (Number.isNaN(at)) return ''
  const diff = at - now
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  for (const [unit, ms] of UNITS) {
    // Days up to two weeks read better than "next week".
    if (unit === 'week' && Math.abs(diff) < 14 * 24 * 3600e3) continue
    if (Math.abs(diff) >= ms) return format.format(Math.round(diff / ms), unit)
  }
  return 'now'
}
