import { BrowserWindow, shell, type App, type Session, type WebContents } from 'electron'
import { APP_START_URL, externalUrl, isAppUrl } from './origin'

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
  window.once('ready-to-show', () => window.show())
  void window.loadURL(options.url ?? APP_START_URL)
  return window
}
