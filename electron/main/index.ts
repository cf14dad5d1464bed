// Electron main process: app lifecycle only; everything else lives in electron/core. The demo
// service this build carries (./demo) is handed to the core here.
import { join } from 'node:path'
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  net,
  powerMonitor,
  session,
  type MessageBoxOptions,
} from 'electron'
import type { Core } from '../core/index'
import { startCore } from '../core/start'
import { createElectronHost } from './host'
import { registerIpc } from './ipc'
import {
  claimSingleInstance,
  createLinkIntake,
  listenForLinks,
  openLinkFromClipboard,
  registerLinkScheme,
  type LinkIntake,
} from './links'
import { installMenu } from './menu'
import { watchNetwork } from './network'
import { builtPaths } from './paths'
import { registerAppScheme, serveAppProtocol } from './protocol'
import { createAppWindow, hardenSession, installAppGuards } from './window'
import { AccountWindows, MainWindowSlot } from './window-registry'

function log(level: 'info' | 'warn' | 'error', message: string): void {
  const line = `[${level}] ${message}`
  if (level === 'info') console.log(line)
  else console.error(line)
}

function explainNoLink(): void {
  const options: MessageBoxOptions = {
    type: 'info',
    message: 'There is no ScanDesk link on the clipboard.',
    detail:
      'Copy the scandesk:// link from the e-mail, then choose File → Open Link from Clipboard again.',
  }
  const parent = BrowserWindow.getFocusedWindow()
  void (parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options))
}

async function start(intake: LinkIntake): Promise<void> {
  await app.whenReady()
  const userData = app.getPath('userData')
  const devTools = !app.isPackaged
  const paths = builtPaths(__dirname)
  hardenSession(session.defaultSession)
  serveAppProtocol(paths.renderer)

  const createWindow = (url?: string) =>
    createAppWindow({ preloadPath: paths.preload, devTools, ...(url ? { url } : {}) })
  const mainWindow = new MainWindowSlot(() => createWindow())
  // Closing an account's window aborts that account's running calls (once the core exists).
  let abortCalls: (accountId: string) => void = () => undefined
  const accountWindows = new AccountWindows(
    (address) => createWindow(address),
    (accountId) => abortCalls(accountId),
  )

  // The core's modules load once the store is open and the keychain asked (startCore); the demo
  // service (the whole sandbox) only when a demo account is first used.
  const core: Core = await startCore({
    dataDir: userData,
    mode: 'electron',
    version: app.getVersion(),
    demo: async () =>
      (await import('./demo')).startDemoService({
        dataFile: join(userData, 'demo-sandbox.json'),
      }),
    host: createElectronHost({ showAccountWindow: (id) => void accountWindows.show(id) }),
    log,
  })
  abortCalls = (accountId) => core.abortCalls(accountId)
  const stopWatchingNetwork = watchNetwork({ net, powerMonitor }, core)
  // A link from the OS is shown in the main window only (one dialog, not one per window).
  const unwire = registerIpc(core, log, (name) => {
    const main = mainWindow.window
    return name === 'links.opened' && main ? [main] : null
  })
  installMenu({
    isMac: process.platform === 'darwin',
    devTools,
    onNewWindow: () => void createWindow(),
    onOpenLinkFromClipboard: () =>
      void openLinkFromClipboard(() => clipboard.readText(), intake, explainNoLink),
  })
  mainWindow.open()
  intake.start({
    show: () => mainWindow.show(),
    async open(link) {
      await core.openLink(link)
    },
  })

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow.open()
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  let closed = false
  app.on('before-quit', (event) => {
    if (closed) return
    event.preventDefault()
    unwire()
    stopWatchingNetwork()
    core
      .close()
      .catch((err: unknown) => log('error', `closing the core failed: ${String(err)}`))
      .finally(() => {
        closed = true
        app.quit()
      })
  })
}

// Every renderer is sandboxed, whatever a window's options say (before 'ready').
app.enableSandbox()
registerAppScheme()
installAppGuards(app)
if (claimSingleInstance(app)) {
  // Links can arrive before 'ready' (macOS open-url, this launch's argv): the intake queues them.
  const intake = createLinkIntake(log)
  listenForLinks(app, intake, process.argv)
  const facts = { defaultApp: Boolean(process.defaultApp), execPath: process.execPath }
  if (!registerLinkScheme(app, { ...facts, argv: process.argv }))
    log('warn', 'could not register ScanDesk as the handler of scandesk:// links')
  start(intake).catch((err: unknown) => {
    dialog.showErrorBox(
      'ScanDesk could not start',
      err instanceof Error ? err.message : String(err),
    )
    app.exit(1)
  })
}
