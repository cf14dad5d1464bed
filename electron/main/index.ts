// Electron main process: app lifecycle only; everything else lives in electron/core.
import { join } from 'node:path'
import { app, BrowserWindow, dialog, session } from 'electron'
import { startDemoService } from '../core/demo/start-demo'
import { createCore, type Core } from '../core/index'
import { createElectronHost } from './host'
import { registerIpc } from './ipc'
import { installMenu } from './menu'
import { builtPaths } from './paths'
import { registerAppScheme, serveAppProtocol } from './protocol'
import { createAppWindow, hardenSession, installAppGuards } from './window'

function log(level: 'info' | 'warn' | 'error', message: string): void {
  const line = `[${level}] ${message}`
  if (level === 'info') console.log(line)
  else console.error(line)
}

async function start(): Promise<void> {
  await app.whenReady()
  const userData = app.getPath('userData')
  const devTools = !app.isPackaged
  const paths = builtPaths(__dirname)
  hardenSession(session.defaultSession)
  serveAppProtocol(paths.renderer)

  const core: Core = await createCore({
    dataDir: userData,
    mode: 'electron',
    version: app.getVersion(),
    demo: () => startDemoService({ dataFile: join(userData, 'demo-sandbox.json') }),
    host: createElectronHost(),
    log,
  })
  const unwire = registerIpc(core, log)
  const openWindow = () => createAppWindow({ preloadPath: paths.preload, devTools })
  installMenu({ isMac: process.platform === 'darwin', devTools, onNewWindow: openWindow })
  openWindow()

  app.on('second-instance', () => {
    const [first] = BrowserWindow.getAllWindows()
    if (!first) return void openWindow()
    if (first.isMinimized()) first.restore()
    first.focus()
  })
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow()
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  let closed = false
  app.on('before-quit', (event) => {
    if (closed) return
    event.preventDefault()
    unwire()
    core
      .close()
      .catch((err: unknown) => log('error', `closing the core failed: ${String(err)}`))
      .finally(() => {
        closed = true
        app.quit()
      })
  })
}

registerAppScheme()
installAppGuards(app)
if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  start().catch((err: unknown) => {
    dialog.showErrorBox(
      'ScanDesk could not start',
      err instanceof Error ? err.message : String(err),
    )
    app.exit(1)
  })
}
