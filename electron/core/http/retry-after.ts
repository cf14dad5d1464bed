// Retry-After as RFC 9110 §10.2.3 defines it: `HTTP-date / delay-seconds`. Anything else is
// ignored (the caller's own backoff applies), so junk such as "-1", "1.5", "soon" or whatever
// Date.parse happens to accept never turns into "retry at once".

/** delay-seconds: one or more digits, nothing else. */
const DELAY_SECONDS = /^\d+$/

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']
const LONG_DAY_NAMES = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
]
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

const DAY = `(${DAY_NAMES.join('|')})`
const MONTH = `(${MONTHS.join('|')})`
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})'

/** IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT` (the form senders must use). */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`)
/** rfc850-date (obsolete): `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC850_DATE = new RegExp(
  `^(${LONG_DAY_NAMES.join('|')}), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`,
)
/** asctime-date (obsolete): `Sun Nov  6 08:49:37 1994` (the day padded with a space). */
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`)

/**
 * The instant of a date-time given by its parts (UTC), or undefined when a part is out of range
 * (31 Feb, 24:00:00, 13th month…). A leap second (:60) is read as the next second.
 */
function utc(
  year: number,
  month: string,
  day: number,
  hour: number,
  minute: number,
  second: number,
): number | undefined {
  const m = MONTHS.indexOf(month)
  if (m < 0 || hour > 23 || minute > 59 || second > 60 || day < 1) return undefined
  const date = new Date(Date.UTC(year, m, day, hour, minute, Math.min(second, 59)))
  // Date.UTC rolls 31 Feb over into March: a day the month does not have is refused.
  if (date.getUTCMonth() !== m || date.getUTCDate() !== day) return undefined
  return date.getTime() + (second === 60 ? 1000 : 0)
}

/**
 * The instant an HTTP-date names (RFC 9110 §5.6.7: IMF-fixdate, or the obsolete rfc850-date and
 * asctime-date), or undefined for any other text. The day name is checked for form only, as the
 * RFC asks. A two-digit rfc850 year more than 50 years ahead of `now` is the most recent past year
 * with those digits.
 */
export function parseHttpDate(text: string, now = Date.now()): number | undefined {
  let m = IMF_FIXDATE.exec(text)
  if (m) return utc(Number(m[4]), m[3], Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]))
  m = RFC850_DATE.exec(text)
  if (m) {
    const thisYear = new Date(now).getUTCFullYear()
    let year = Math.floor(thisYear / 100) * 100 + Number(m[4])
    if (year > thisYear + 50) year -= 100
    return utc(year, m[3], Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]))
  }
  m = ASCTIME_DATE.exec(text)
  if (m)
    return utc(Number(m[7]), m[2], Number(m[3].trim()), Number(m[4]), Number(m[5]), Number(m[6]))
  return undefined
}

/**
 * Milliseconds a Retry-After header asks to wait: a non-negative whole number of seconds, or the
 * time until an HTTP-date (0 when that date has passed). Undefined for a missing header or any
 * other value, so the caller's backoff applies.
 */
export function retryAfterMs(header: unknown, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value >= 0 ? value * 1000 : undefined
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  if (DELAY_SECONDS.test(text)) {
    const seconds = Number(text)
    return Number.isSafeInteger(seconds * 1000) ? seconds * 1000 : Number.MAX_SAFE_INTEGER
  }
  const date = parseHttpDate(text, now)
  return date === undefined ? undefined : Math.max(0, date - now)
}
