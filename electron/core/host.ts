import type { TrustConfirmation } from '@contract/errors'
import type { OpenedWindow } from '@contract/sessions'

/**
 * What the host (Electron main, or browser mode) offers the core: OS dialogs, opening files and
 * notifications. Browser mode has no OS dialogs: its pickers answer null and the renderer asks
 * for a typed path instead.
 */
export interface HostServices {
  /** Lets the user choose a folder; null when cancelled or unavailable. */
  pickFolder(title: string, defaultPath?: string): Promise<string | null>
  /** Lets the user choose where to save a file; null when cancelled or unavailable. */
  pickSaveAs(defaultPath: string): Promise<string | null>
  /**
   * Lets the user choose an existing file; null when cancelled or unavailable. `types`: 'documents'
   * (default: the PDF and CSV ScanDesk downloads, for "Verify a file…") or 'any' (SAQ evidence).
   */
  pickFile(title: string, types?: 'documents' | 'any'): Promise<string | null>
  /** Opens a file with the OS's default application; false when that is not possible. */
  openPath(path: string): Promise<boolean>
  /** Shows a file in its folder (file manager); false when that is not possible. */
  revealPath(path: string): Promise<boolean>
  /** Shows a native notification (no-op where there is none). */
  notify(title: string, body: string): void
  /**
   * Opens the account in a window of its own (pinned to it). Electron: a new BrowserWindow
   * loading the renderer with `?account=<id>`; browser mode: the URL the renderer opens in a tab.
   */
  openAccountWindow(accountId: string): Promise<OpenedWindow>
  /**
   * The user's own folders where browser mode takes a typed path (besides the account's download
   * folders). Default (absent): the home directory and the OS temp directory; tests give a
   * temporary folder as "home".
   */
  userFolders?(): string[]
  /**
   * Asks the user, in a dialog of main's own (Electron), to confirm a change of what main trusts
   * (a CA bundle, plain http); true only when they chose to trust. Browser mode has none.
   */
  confirmTrust?(request: TrustConfirmation & { title: string }): Promise<boolean>
}

/** The renderer URL (relative, hash router) of a window pinned to one account. */
export function accountWindowUrl(accountId: string): string {
  return `/?account=${encodeURIComponent(accountId)}#/`
}

/** A host with no dialogs and no OS integration (tests, and the default). */
export const headlessHost: HostServices = {
  pickFolder: async () => null,
  pickSaveAs: async () => null,
  pickFile: async () => null,
  openPath: async () => false,
  revealPath: async () => false,
  notify: () => undefined,
  openAccountWindow: async (accountId) => ({ opened: 'url', url: accountWindowUrl(accountId) }),
}
