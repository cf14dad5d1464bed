// Which window is which: the main window (links are shown there) and one window per account.
// Windows come from the one factory in window.ts; this only tracks, reuses and focuses them.
import { accountWindowUrl } from '../core/host'
import { APP_START_URL } from './origin'

/** The parts of a BrowserWindow the registry uses. */
export interface TrackedWindow {
  isDestroyed(): boolean
  isVisible(): boolean
  isMinimized(): boolean
  restore(): void
  focus(): void
  once(event: 'closed', listener: () => void): unknown
  webContents: {
    once(event: 'did-finish-load' | 'did-fail-load', listener: () => void): unknown
  }
}

/** A page that has not loaded after this long is treated as loaded (a link is not held forever). */
export const LOAD_WAIT_MS = 15_000

/** The app:// address of the window pinned to one account (hash router: `…?account=<id>#/`). */
export function accountWindowAddress(accountId: string): string {
  return APP_START_URL + accountWindowUrl(accountId).replace(/^\//, '')
}

/** Restores and focuses a shown window; a window not shown yet shows itself when ready. */
function bringForward(window: TrackedWindow): void {
  if (window.isMinimized()) window.restore()
  if (window.isVisible()) window.focus()
}

/** Resolves once the window's first page load ended (or failed, or LOAD_WAIT_MS passed). */
function firstLoad(window: TrackedWindow): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, LOAD_WAIT_MS)
    timer.unref?.()
    const done = () => {
      clearTimeout(timer)
      resolve()
    }
    window.webContents.once('did-finish-load', done)
    window.webContents.once('did-fail-load', done)
  })
}

/** The main window: opened on start, reopened when a link arrives and it was closed. */
export class MainWindowSlot<W extends TrackedWindow> {
  private current: { window: W; loaded: Promise<void> } | null = null

  constructor(private readonly create: () => W) {}

  /** The live main window, if any. */
  get window(): W | null {
    return this.current && !this.current.window.isDestroyed() ? this.current.window : null
  }

  /** Opens the main window unless it is open; answers it. */
  open(): W {
    const live = this.window
    if (live) return live
    const window = this.create()
    const entry = { window, loaded: firstLoad(window) }
    this.current = entry
    window.once('closed', () => {
      if (this.current === entry) this.current = null
    })
    return window
  }

  /** Brings the main window forward (opening it if closed); resolves once its page has loaded. */
  show(): Promise<void> {
    const live = this.window
    if (live) bringForward(live)
    else this.open()
    return this.current?.loaded ?? Promise.resolve()
  }
}

/** One window per account: opening an account's window again focuses the one that is open. */
export class AccountWindows<W extends TrackedWindow> {
  private readonly open = new Map<string, W>()

  /** `onClosed` runs when an account's window closes (core aborts that account's calls). */
  constructor(
    private readonly create: (address: string) => W,
    private readonly onClosed: (accountId: string) => void = () => undefined,
  ) {}

  /** Opens the account's window, or brings its open window forward. */
  show(accountId: string): W {
    const existing = this.open.get(accountId)
    if (existing && !existing.isDestroyed()) {
      bringForward(existing)
      return existing
    }
    const window = this.create(accountWindowAddress(accountId))
    this.open.set(accountId, window)
    window.once('closed', () => {
      if (this.open.get(accountId) === window) this.open.delete(accountId)
      this.onClosed(accountId)
    })
    return window
  }

  /** The ids of accounts whose window is open. */
  accounts(): string[] {
    return [...this.open].filter(([, w]) => !w.isDestroyed()).map(([id]) => id)
  }
}
