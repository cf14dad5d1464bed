/** Languages offered in the profile (the service accepts any `xx` or `xx-YY`; others can be typed). */
export const LOCALES = [
  { value: 'en', label: 'English' },
  { value: 'en-GB', label: 'English (United Kingdom)' },
  { value: 'en-US', label: 'English (United States)' },
  { value: 'de', label: 'Deutsch' },
  { value: 'es', label: 'Español' },
  { value: 'fr', label: 'Français' },
  { value: 'it', label: 'Italiano' },
  { value: 'nl', label: 'Nederlands' },
  { value: 'pt', label: 'Português' },
  { value: 'ja', label: '日本語' },
] as const

/** IANA time zones this runtime knows (UTC first), or a short list where Intl cannot tell. */
export function timeZones(): string[] {
  const intl = Intl as { supportedValuesOf?: (key: 'timeZone') => string[] }
  const known = intl.supportedValuesOf?.('timeZone') ?? [
    'Europe/London',
    'Europe/Berlin',
    'America/New_York',
    'America/Los_Angeles',
    'Asia/Tokyo',
  ]
  return ['UTC', ...known.filter((z) => z !== 'UTC')]
}

/** Labels of the notification preference switches (keys: catalog/user.ts). */
export const NOTIFICATION_LABELS: Record<string, { label: string; hint: string }> = {
  scan_completed: { label: 'Scan completed', hint: 'A scan you started or scheduled finished.' },
  scan_failed: { label: 'Scan failed', hint: 'A scan stopped with an error.' },
  report_ready: { label: 'Report ready', hint: 'A report you asked for can be downloaded.' },
  new_critical_vulnerability: {
    label: 'New critical vulnerability',
    hint: 'A scan found a critical vulnerability.',
  },
  exception_expiring: {
    label: 'Exception expiring',
    hint: 'An accepted exception is about to expire.',
  },
  saq_approved: { label: 'Questionnaire approved', hint: 'An SAQ you submitted was approved.' },
  weekly_summary: { label: 'Weekly summary', hint: 'A summary of the week, every Monday.' },
}
