import { BrowserWindow, shell, type App, type Session, type WebContents } from 'electron'
import { externalUrl } from '@contract/links'
import { APP_START_URL, isAppUrl } from './origin'

/** Options of the one window factory. */
export interface AppWindowOptions {
  /** Absolute path of the built preload script. */
  preloadPath: string
  /** DevTools only in development (`!app.isPackaged`). */
  devTools: boolean
  /** First URL to load; always on the app:// origin. */
  url?: string
}

/** Denies navigation away from app://scandesk, window.open (http(s) goes to the system browser) and webviews. */
export function hardenWebContents(contents: WebContents): void {
  const refuseForeign = (event: { preventDefault(): void }, url: string) => {
    if (!isAppUrl(url)) event.preventDefault()
  }
  contents.on('will-navigate', refuseForeign)
  contents.on('will-redirect', refuseForeign)
  // Subframes too (the app has none; an injected one must not leave the origin either).
  contents.on('will-frame-navigate', (details) => {
    if (!isAppUrl(details.url)) details.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url)
    return { action: 'deny' }
  })
}

/**
 * The one place ScanDesk hands an address to the system browser: https only, without
 * credentials (`externalUrl`); anything else is dropped. Returns whether it was handed over.
 */
export function openExternally(url: string): boolean {
  const safe = externalUrl(url)
  if (safe) void shell.openExternal(safe)
  return safe !== null
}

/** What the app's own pages may ask for: desktop notifications (a scan finished). */
const GRANTED = new Set(['notifications'])

/**
 * Denies every permission request and check (camera, geolocation, clipboard, …) except
 * notifications asked by the app's own pages (app://scandesk); a page of any other origin gets
 * nothing.
 */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(GRANTED.has(permission) && isAppUrl(details?.requestingUrl ?? '')),
  )
  session.setPermissionCheckHandler(
    (_contents, permission, requestingOrigin) =>
      GRANTED.has(permission) && isAppUrl(requestingOrigin),
  )
  // No USB, HID, serial or Bluetooth device, ever.
  session.setDevicePermissionHandler(() => false)
}

/** Renderer crashes a window recovers from by reloading, within a minute; then it stays down. */
const CRASH_RELOADS_PER_MINUTE = 3

/**
 * A renderer that crashed or was killed (not a clean exit) is reloaded at the start page: state
 * lives in main, so nothing is lost; a renderer that keeps crashing is not reloaded in a loop.
 */
function reloadAfterCrash(window: BrowserWindow): void {
  const crashes: number[] = []
  window.webContents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit' || window.isDestroyed()) return
    const now = Date.now()
    while (crashes.length && now - crashes[0] > 60_000) crashes.shift()
    crashes.push(now)
    console.error(`[error] renderer gone (${details.reason}); ${crashes.length} in the last minute`)
    if (crashes.length <= CRASH_RELOADS_PER_MINUTE) void window.loadURL(APP_START_URL)
  })
}

/** Applies the web-contents guards to every web contents the app ever creates (webviews included). */
export function installAppGuards(app: App): void {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents))
}

/** The one window factory: isolated, sandboxed, no Node, no webviews. */
export function createAppWindow(options: AppWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'ScanDesk',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // A middle click would open a link in a new window without going through window.open.
      disableBlinkFeatures: 'Auxclick',
      devTools: options.devTools,
    },
  })
  hardenWebContents(window.webContents)
  reloadAfterCrash(window)
  window.once('ready-to-show', () => window.show())
  void window.loadURL(options.url ?? APP_START_URL)
  return window
}
