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
