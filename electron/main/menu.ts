import { Menu, type MenuItemConstructorOptions } from 'electron'

/** What the menu can do besides Electron's built-in roles. */
export interface MenuOptions {
  isMac: boolean
  devTools: boolean
  onNewWindow: () => void
  /** File → Open Link from Clipboard: main reads the link itself; nothing goes to a page. */
  onOpenLinkFromClipboard: () => void
}

/** The application menu: File (new window, open link, quit), Edit, View and Window. */
export function menuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload' },
    ...(options.devTools ? [{ role: 'toggleDevTools' } as const] : []),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ]
  return [
    ...(options.isMac ? [{ role: 'appMenu' } as const] : []),
    {
      label: 'File',
      submenu: [
        {
          label: 'New Window',
          accelerator: 'CmdOrCtrl+Shift+N',
          click: () => options.onNewWindow(),
        },
        {
          label: 'Open Link from Clipboard',
          accelerator: 'CmdOrCtrl+Shift+L',
          click: () => options.onOpenLinkFromClipboard(),
        },
        { type: 'separator' },
        options.isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
  ]
}

/** Installs the application menu. */
export function installMenu(options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(options)))
}
