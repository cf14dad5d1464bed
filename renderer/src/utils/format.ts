/** "1.5 MB": a byte count in decimal units, one decimal place above bytes. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—'
  if (bytes < 1000) return `${bytes} B`
  const units = ['kB', 'MB', 'GB', 'TB']
  let value = bytes / 1000
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${value.toFixed(1)} ${units[unit]}`
}

/** "2.4 MB/s". */
export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(Math.round(bytesPerSecond))}/s`
}

/** "1 min 5 s left"-style duration: "45 s", "3 min 5 s", "1 h 2 min". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m} min ${s % 60} s`
  return `${Math.floor(m / 60)} h ${m % 60} min`
}

// Made once: a formatter costs far more to create than to use, and a list formats a date or two
// on each of its rows (the locale and zone are the page's, fixed for its life).
let dateTimeFormat: Intl.DateTimeFormat | undefined

/** A date-time for tables: "22 Nov 2026, 05:42" in the local zone; the raw text when unparsable. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  dateTimeFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
  return dateTimeFormat.format(d)
}
