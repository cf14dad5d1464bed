// The app's own origin and the URL tests every guard (navigation, IPC sender, protocol) shares.

/** Scheme that serves the built renderer inside Electron. */
export const APP_SCHEME = 'app'
/** Host of every renderer URL: app://scandesk/… */
export const APP_HOST = 'scandesk'
/** The first page every window loads. */
export const APP_START_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

/** True when `url` is on the app://scandesk origin (exact scheme and host, no port, no user). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url)
    return (
      parsed.protocol === `${APP_SCHEME}:` &&
      parsed.hostname === APP_HOST &&
      parsed.port === '' &&
      parsed.username === '' &&
      parsed.password === ''
    )
  } catch {
    return false
  }
}

/**
 * The only kind of address ScanDesk hands to the system browser: https, no user name or
 * password in it, no control characters or spaces, at most 2,048 characters. Returns the
 * normalised address, or null for anything else (http, file:, smb:, javascript:, custom schemes,
 * app:// …).
 */
export function externalUrl(url: string): string | null {
  if (typeof url !== 'string' || url.length > 2048) return null
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i)
    if (code <= 0x20 || code === 0x7f) return null
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== 'https:' || !parsed.hostname) return null
  if (parsed.username || parsed.password) return null
  return parsed.href
}
