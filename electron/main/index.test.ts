// The main process wiring (index.ts) with Electron and the core replaced by recording fakes.
import { join } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { HostServices } from '../core/host'
import { CoreEvents } from '../core/events'

type Listener = (...args: unknown[]) => void

/** Records listeners like an EventEmitter, and fires them. */
class Emitter {
  listeners = new Map<string, Listener[]>()
  on(name: string, fn: Listener) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), fn])
    return this
  }
  once(name: string, fn: Listener) {
    const wrapped: Listener = (...args) => {
      this.listeners.set(
        name,
        (this.listeners.get(name) ?? []).filter((f) => f !== wrapped),
      )
      fn(...args)
    }
    return this.on(name, wrapped)
  }
  fire(name: string, ...args: unknown[]) {
    for (const fn of [...(this.listeners.get(name) ?? [])]) fn(...args)
  }
}

class FakeContents extends Emitter {
  sent: [string, unknown][] = []
  setWindowOpenHandler() {}
  send(channel: string, payload: unknown) {
    this.sent.push([channel, payload])
  }
}

const state = vi.hoisted(() => ({
  lock: true,
  app: null as unknown as InstanceType<typeof Emitter> & Record<string, unknown>,
  ready: null as unknown as { promise: Promise<void>; resolve: () => void },
  windows: [] as FakeWindowShape[],
  quit: 0,
  sandboxed: 0,
  protocolClients: [] as unknown[][],
  whenReadyCalls: 0,
  coreOptions: null as null | { host: HostServices; demo?: () => Promise<unknown> },
  demoStarts: [] as unknown[],
  /** Whether main has loaded its demo module (the sandbox) in this run. */
  demoLoaded: false,
  opened: [] as string[],
  aborted: [] as string[],
  core: null as unknown,
  isPackaged: true,
  /** The default session's handlers as our code set them. */
  session: {} as Record<string, (...args: unknown[]) => unknown>,
  /** What happened, in order: 'session:<handler>' and 'window'. */
  order: [] as string[],
  menu: null as unknown,
}))

interface FakeWindowShape {
  options: { webPreferences: Record<string, unknown>; title?: string }
  loaded: string[]
  destroyed: boolean
  visible: boolean
  focused: number
  webContents: FakeContents
  listeners: Map<string, Listener[]>
  fire(name: string, ...args: unknown[]): void
  close(): void
}

vi.mock('electron', () => {
  class BrowserWindow extends Emitter implements FakeWindowShape {
    static getAllWindows = () => state.windows.filter((w) => !w.destroyed)
    static getFocusedWindow = () => null
    loaded: string[] = []
    destroyed = false
    visible = false
    minimized = false
    focused = 0
    webContents = new FakeContents()
    constructor(public options: FakeWindowShape['options']) {
      super()
      state.windows.push(this)
      state.order.push('window')
    }
    isDestroyed = () => this.destroyed
    isVisible = () => this.visible
    isMinimized = () => this.minimized
    restore = () => void (this.minimized = false)
    show = () => void (this.visible = true)
    focus = () => void this.focused++
    async loadURL(url: string) {
      this.loaded.push(url)
    }
    close() {
      this.destroyed = true
      this.fire('closed')
    }
  }
  const app = {
    on: (name: string, fn: Listener) => state.app.on(name, fn),
    requestSingleInstanceLock: () => state.lock,
    quit: () => void state.quit++,
    exit: () => {},
    setAsDefaultProtocolClient: (...args: unknown[]) => (state.protocolClients.push(args), true),
    whenReady: () => (state.whenReadyCalls++, state.ready.promise),
    getPath: () => '/tmp/scandesk-user-data',
    getVersion: () => '1.2.3',
    get isPackaged() {
      return state.isPackaged
    },
    enableSandbox: () => void state.sandboxed++,
  }
  return {
    app,
    BrowserWindow,
    clipboard: { readText: async () => '' },
    dialog: { showErrorBox: () => {}, showMessageBox: async () => ({ response: 0 }) },
    session: {
      defaultSession: Object.fromEntries(
        [
          'setPermissionRequestHandler',
          'setPermissionCheckHandler',
          'setDevicePermissionHandler',
        ].map((name) => [
          name,
          (handler: (...args: unknown[]) => unknown) => {
            state.session[name] = handler
            state.order.push(`session:${name}`)
          },
        ]),
      ),
    },
    protocol: { registerSchemesAsPrivileged() {}, handle() {} },
    Menu: {
      buildFromTemplate: (t: unknown) => t,
      setApplicationMenu: (menu: unknown) => void (state.menu = menu),
    },
    ipcMain: { handle() {}, removeHandler() {} },
    shell: { openExternal: async () => {}, openPath: async () => '', showItemInFolder() {} },
    Notification: { isSupported: () => false },
    net: { isOnline: () => true },
    powerMonitor: { on: () => undefined },
  }
})

vi.mock('../core/start', () => ({
  startCore: async (options: NonNullable<typeof state.coreOptions>) => {
    state.coreOptions = options
    return state.core
  },
}))
vi.mock('./demo', () => {
  state.demoLoaded = true
  return {
    startDemoService: async (options: unknown) => (state.demoStarts.push(options), {}),
  }
})

const SSO = 'scandesk://sso?host=scan.example.test&token=tok_secret_sso_123'
let events = new CoreEvents()

beforeEach(() => {
  vi.resetModules()
  state.lock = true
  state.app = new Emitter() as typeof state.app
  let resolve = () => {}
  const promise = new Promise<void>((r) => (resolve = r))
  state.ready = { promise, resolve }
  state.windows = []
  state.quit = 0
  state.sandboxed = 0
  state.protocolClients = []
  state.whenReadyCalls = 0
  state.coreOptions = null
  state.demoStarts = []
  state.demoLoaded = false
  state.opened = []
  state.aborted = []
  state.isPackaged = true
  state.session = {}
  state.order = []
  state.menu = null
  events = new CoreEvents()
  state.core = {
    events,
    dispatch: async () => '{"ok":true,"data":null}',
    close: async () => {},
    openLink: async (link: string) => void state.opened.push(link),
    abortCalls: (accountId: string) => void state.aborted.push(accountId),
    setNetwork: () => undefined,
    resumed: () => undefined,
  }
})

/** Imports index.ts (which starts the app), makes the app ready and waits for the main window. */
async function startApp() {
  await import('./index')
  state.ready.resolve()
  await vi.waitFor(() => expect(state.windows).toHaveLength(1))
  const main = state.windows[0]
  main.fire('ready-to-show')
  return main
}

describe('starting ScanDesk', () => {
  it('sandboxes every renderer before anything else', async () => {
    await import('./index')
    expect(state.sandboxed).toBe(1)
    expect(state.whenReadyCalls).toBeLessThanOrEqual(1)
  })

  it('quits at once when another ScanDesk is running', async () => {
    state.lock = false
    await import('./index')
    expect(state.quit).toBe(1)
    expect(state.whenReadyCalls).toBe(0)
    expect(state.app.listeners.has('open-url')).toBe(false)
    expect(state.protocolClients).toEqual([])
  })

  it('registers ScanDesk as the handler of scandesk:// links', async () => {
    await startApp()
    expect(state.protocolClients).toEqual([['scandesk']])
  })
})

describe('the demo service', () => {
  it('is the one main carries, handed to the core, keeping its state in userData', async () => {
    await startApp()
    expect(state.demoStarts).toEqual([])
    // The sandbox's code loads when the demo is first started, not with main.
    expect(state.demoLoaded).toBe(false)
    await state.coreOptions!.demo!()
    expect(state.demoLoaded).toBe(true)
    expect(state.demoStarts).toEqual([
      { dataFile: join('/tmp/scandesk-user-data', 'demo-sandbox.json') },
    ])
  })
})

describe('a link that arrives while ScanDesk starts', () => {
  it('is kept until the core and the main window are ready, then handed to the core once', async () => {
    await import('./index')
    const event = { preventDefault: vi.fn() }
    state.app.fire('open-url', event, SSO)
    expect(event.preventDefault).toHaveBeenCalled()
    state.ready.resolve()
    await vi.waitFor(() => expect(state.windows).toHaveLength(1))
    await new Promise((r) => setTimeout(r, 20))
    expect(state.opened).toEqual([])
    state.windows[0].webContents.fire('did-finish-load')
    await vi.waitFor(() => expect(state.opened).toEqual([SSO]))
  })
})

describe('a link from a second launch', () => {
  it('brings the main window forward and hands only the link to the core', async () => {
    const main = await startApp()
    main.webContents.fire('did-finish-load')
    state.app.fire('second-instance', {}, ['scandesk', '--flag', 'https://x.test', SSO], '/')
    await vi.waitFor(() => expect(state.opened).toEqual([SSO]))
    expect(main.focused).toBe(1)
  })

  it('reopens the main window when it was closed, and delivers after it loaded', async () => {
    const main = await startApp()
    main.webContents.fire('did-finish-load')
    main.close()
    state.app.fire('second-instance', {}, ['scandesk', SSO], '/')
    await vi.waitFor(() => expect(state.windows).toHaveLength(2))
    await new Promise((r) => setTimeout(r, 20))
    expect(state.opened).toEqual([])
    state.windows[1].webContents.fire('did-finish-load')
    await vi.waitFor(() => expect(state.opened).toEqual([SSO]))
  })
})

describe('account windows', () => {
  it('open with the main window’s web preferences, pinned to the account', async () => {
    const main = await startApp()
    const host = state.coreOptions!.host
    expect(await host.openAccountWindow('acc_7')).toEqual({ opened: 'window' })
    expect(state.windows).toHaveLength(2)
    const account = state.windows[1]
    expect(account.loaded).toEqual(['app://scandesk/index.html?account=acc_7#/'])
    expect(account.options.webPreferences).toEqual(main.options.webPreferences)
    expect(account.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    })
  })

  it('are reused: opening an account again focuses its window', async () => {
    await startApp()
    const host = state.coreOptions!.host
    await host.openAccountWindow('acc_7')
    const account = state.windows[1]
    account.fire('ready-to-show')
    await host.openAccountWindow('acc_7')
    expect(state.windows).toHaveLength(2)
    expect(account.focused).toBe(1)
    await host.openAccountWindow('acc_8')
    expect(state.windows).toHaveLength(3)
    account.close()
    expect(state.aborted).toEqual(['acc_7']) // its running calls are aborted
    await host.openAccountWindow('acc_7')
    expect(state.windows).toHaveLength(4)
  })

  it('keep the title the page sets', async () => {
    await startApp()
    await state.coreOptions!.host.openAccountWindow('acc_7')
    const account = state.windows[1]
    expect(account.listeners.get('page-title-updated') ?? []).toEqual([])
    expect(account.webContents.listeners.get('page-title-updated') ?? []).toEqual([])
  })

  it('do not receive links: only the main window shows an opened link', async () => {
    const main = await startApp()
    await state.coreOptions!.host.openAccountWindow('acc_7')
    const account = state.windows[1]
    const view = {
      linkId: 'l'.repeat(20),
      kind: 'sso',
      host: 'h',
      accountIds: [],
      needsPassword: false,
    }
    events.emit('links.opened', view as never)
    events.emit('keychain.status', { available: true, message: null } as never)
    expect(main.webContents.sent.map(([c]) => c)).toEqual([
      'event:links.opened',
      'event:keychain.status',
    ])
    expect(account.webContents.sent.map(([c]) => c)).toEqual(['event:keychain.status'])
  })
})

/** Every menu role below `items`, submenus included. */
function menuRoles(items: unknown): string[] {
  if (!Array.isArray(items)) return []
  return items.flatMap((item: { role?: string; submenu?: unknown }) => [
    ...(item.role ? [item.role] : []),
    ...menuRoles(item.submenu),
  ])
}

describe('DevTools', () => {
  it.each([
    [true, false],
    [false, true],
  ])(
    'with app.isPackaged %s: devTools %s in every window and in the menu',
    async (packaged, on) => {
      state.isPackaged = packaged
      const main = await startApp()
      await state.coreOptions!.host.openAccountWindow('acc_7')
      const account = state.windows[1]
      for (const window of [main, account]) expect(window.options.webPreferences.devTools).toBe(on)
      expect(menuRoles(state.menu).includes('toggleDevTools')).toBe(on)
    },
  )
})

describe('the permission handlers on the default session', () => {
  it('are set before the first window exists, and deny all but the app’s notifications', async () => {
    await startApp()
    const window = state.order.indexOf('window')
    for (const name of [
      'setPermissionRequestHandler',
      'setPermissionCheckHandler',
      'setDevicePermissionHandler',
    ]) {
      expect(state.session[name], name).toBeTypeOf('function')
      expect(state.order.indexOf(`session:${name}`), name).toBeLessThan(window)
    }
    const asked = (permission: string, url: string) => {
      const callback = vi.fn()
      state.session.setPermissionRequestHandler({}, permission, callback, { requestingUrl: url })
      return callback.mock.calls[0]?.[0] as unknown
    }
    expect(asked('notifications', 'app://scandesk/index.html')).toBe(true)
    expect(asked('notifications', 'https://evil.example/')).toBe(false)
    expect(asked('media', 'app://scandesk/index.html')).toBe(false)
    const check = state.session.setPermissionCheckHandler
    expect(check({}, 'notifications', 'app://scandesk')).toBe(true)
    expect(check({}, 'clipboard-read', 'app://scandesk')).toBe(false)
    expect(state.session.setDevicePermissionHandler({ deviceType: 'usb' })).toBe(false)
  })
})
