import { Menu, type MenuItemConstructorOptions } from 'electron'

/** What the menu can do besides Electron's built-in roles. */
export interface MenuOptions {
  isMac: boolean
  devTools: boolean
  onNewWindow: () => void
}

/** The application menu: File (new window, quit), Edit, View and Window, with standard roles. */
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
