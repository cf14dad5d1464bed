// The Electron host: OS dialogs parented to the focused window, opening and revealing files with
// the OS, native notifications and per-account windows. The core decides what may be opened;
// this only does it.
import { stat } from 'node:fs/promises'
import { extname } from 'node:path'
import {
  BrowserWindow,
  dialog,
  Notification,
  shell,
  type MessageBoxOptions,
  type OpenDialogOptions,
  type SaveDialogOptions,
} from 'electron'
import { notificationText } from '@contract/notification-text'
import type { HostServices } from '../core/host'

const DOCUMENT_FILTERS = [{ name: 'Reports (PDF, CSV)', extensions: ['pdf', 'csv'] }]

function filtersFor(path: string): SaveDialogOptions['filters'] {
  const ext = extname(path).slice(1).toLowerCase()
  if (ext === 'pdf') return [{ name: 'PDF document', extensions: ['pdf'] }]
  if (ext === 'csv') return [{ name: 'CSV table', extensions: ['csv'] }]
  return undefined
}

async function openDialog(options: OpenDialogOptions): Promise<string | null> {
  const parent = BrowserWindow.getFocusedWindow()
  const result = parent
    ? await dialog.showOpenDialog(parent, options)
    : await dialog.showOpenDialog(options)
  return result.canceled || !result.filePaths[0] ? null : result.filePaths[0]
}

async function saveDialog(options: SaveDialogOptions): Promise<string | null> {
  const parent = BrowserWindow.getFocusedWindow()
  const result = parent
    ? await dialog.showSaveDialog(parent, options)
    : await dialog.showSaveDialog(options)
  return result.canceled || !result.filePath ? null : result.filePath
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false
  }
}

/** What the Electron host needs from the window wiring of main. */
export interface ElectronHostOptions {
  /** Opens the window pinned to an account, or brings its open window forward. */
  showAccountWindow(accountId: string): void
  /** The OS (process.platform unless a test says otherwise): Linux reads notification bodies as markup. */
  platform?: NodeJS.Platform
}

/** The HostServices of the Electron app (call after app 'ready'). */
export function createElectronHost(options: ElectronHostOptions): HostServices {
  return {
    pickFolder: (title, defaultPath) =>
      openDialog({
        title,
        ...(defaultPath ? { defaultPath } : {}),
        properties: ['openDirectory', 'createDirectory'],
      }),
    pickSaveAs: (defaultPath) =>
      saveDialog({
        defaultPath,
        filters: filtersFor(defaultPath),
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      }),
    pickFile: (title, types = 'documents') =>
      openDialog({
        title,
        ...(types === 'any' ? {} : { filters: DOCUMENT_FILTERS }),
        properties: ['openFile'],
      }),
    async openPath(path) {
      try {
        return (await shell.openPath(path)) === ''
      } catch {
        return false
      }
    },
    async revealPath(path) {
      if (!(await exists(path))) return false
      try {
        shell.showItemInFolder(path)
        return true
      } catch {
        return false
      }
    },
    // Service text reaches the OS only through notificationText: no markup, control or bidi
    // characters, capped.
    notify(title, body) {
      try {
        const markup = (options.platform ?? process.platform) === 'linux'
        if (Notification.isSupported())
          new Notification(notificationText(title, body, { markup })).show()
      } catch {
        // A notification is a courtesy: failing to show one must not fail the job.
      }
    },
    async openAccountWindow(accountId) {
      options.showAccountWindow(accountId)
      return { opened: 'window' }
    },
    // Main's own question: the renderer can neither answer it nor see it before the user does.
    // Cancel is the default and what Escape or closing the box means.
    async confirmTrust({ title, lines }) {
      const box: MessageBoxOptions = {
        type: 'warning',
        title,
        message: title,
        detail: lines.join('\n\n'),
        buttons: ['Cancel', 'Trust'],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
      }
      const parent = BrowserWindow.getFocusedWindow()
      const { response } = parent
        ? await dialog.showMessageBox(parent, box)
        : await dialog.showMessageBox(box)
      return response === 1
    },
  }
}
