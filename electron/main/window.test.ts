import { beforeEach, describe, expect, it, vi } from 'vitest'

type Handler = (...args: unknown[]) => unknown

/** A stand-in for WebContents that records its listeners and window-open handler. */
class FakeContents {
  listeners = new Map<string, Handler[]>()
  openHandler: ((details: { url: string }) => { action: string }) | null = null
  on(name: string, fn: Handler) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), fn])
    return this
  }
  setWindowOpenHandler(fn: (details: { url: string }) => { action: string }) {
    this.openHandler = fn
  }
  /** Fires `name` with a fresh event; returns whether some listener prevented it. */
  fire(name: string, ...args: unknown[]): boolean {
    let prevented = false
    const event = { preventDefault: () => (prevented = true) }
    for (const fn of this.listeners.get(name) ?? []) fn(event, ...args)
    return prevented
  }
  /** Fires an event whose details carry the url (will-frame-navigate). */
  fireDetails(name: string, url: string): boolean {
    let prevented = false
    const details = { url, preventDefault: () => (prevented = true) }
    for (const fn of this.listeners.get(name) ?? []) fn(details)
    return prevented
  }
}

const electron = vi.hoisted(() => ({
  created: [] as { options: Record<string, unknown>; loaded: string[] }[],
  openExternal: vi.fn(async (_url: string) => {}),
  appListeners: new Map<string, (...args: unknown[]) => void>(),
}))

vi.mock('electron', () => {
  class BrowserWindow {
    webContents = new FakeContents()
    record: { options: Record<string, unknown>; loaded: string[] }
    constructor(options: Record<string, unknown>) {
      this.record = { options, loaded: [] }
      electron.created.push(this.record)
    }
    once() {}
    show() {}
    isDestroyed() {
      return false
    }
    async loadURL(url: string) {
      this.record.loaded.push(url)
    }
  }
  return { BrowserWindow, shell: { openExternal: electron.openExternal } }
})

const { createAppWindow, hardenSession, hardenWebContents, installAppGuards, openExternally } =
  await import('./window')

beforeEach(() => {
  electron.created.length = 0
  electron.openExternal.mockClear()
})

describe('the window factory', () => {
  it('isolates and sandboxes the renderer with no Node and no webviews', () => {
    createAppWindow({ preloadPath: '/app/out/preload/index.js', devTools: false })
    const prefs = electron.created[0].options.webPreferences as Record<string, unknown>
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      disableBlinkFeatures: 'Auxclick',
      devTools: false,
    })
  })

  it('allows DevTools only when asked (development builds)', () => {
    createAppWindow({ preloadPath: '/p.js', devTools: true })
    expect((electron.created[0].options.webPreferences as { devTools: boolean }).devTools).toBe(
      true,
    )
  })

  it('loads the app:// start page', () => {
    createAppWindow({ preloadPath: '/p.js', devTools: false })
    expect(electron.created[0].loaded).toEqual(['app://scandesk/index.html'])
  })
})

describe('navigation and new windows', () => {
  const contents = new FakeContents()
  hardenWebContents(contents as never)

  it('lets the app navigate within app://scandesk', () => {
    expect(contents.fire('will-navigate', 'app://scandesk/index.html#/scans')).toBe(false)
    expect(contents.fireDetails('will-frame-navigate', 'app://scandesk/index.html')).toBe(false)
  })

  it.each([
    'https://evil.example/',
    'file:///etc/passwd',
    'app://other/index.html',
    'app://scandesk:8080/',
    'javascript:alert(1)',
  ])('prevents navigating to %s', (url) => {
    expect(contents.fire('will-navigate', url)).toBe(true)
    expect(contents.fire('will-redirect', url)).toBe(true)
    expect(contents.fireDetails('will-frame-navigate', url)).toBe(true)
  })

  it('denies every window.open and hands only https links to the system browser', () => {
    expect(contents.openHandler?.({ url: 'https://docs.example/help' })).toEqual({
      action: 'deny',
    })
    expect(electron.openExternal).toHaveBeenCalledWith('https://docs.example/help')
    for (const url of ['file:///etc/passwd', 'smb://share/x', 'app://scandesk/index.html']) {
      expect(contents.openHandler?.({ url })).toEqual({ action: 'deny' })
    }
    expect(electron.openExternal).toHaveBeenCalledTimes(1)
  })

  it.each([
    ['plain http', 'http://docs.example/help'],
    ['a user and password', 'https://user:pass@docs.example/'],
    ['a user only', 'https://user@docs.example/'],
    ['javascript:', 'javascript:alert(1)'],
    ['file:', 'file:///C:/Windows/system32/calc.exe'],
    ['a UNC share', 'file://server/share/x.exe'],
    ['smb:', 'smb://server/share'],
    ['a custom scheme', 'ms-settings:privacy'],
    ['the app itself', 'app://scandesk/index.html'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['a space', 'https://docs.example/a b'],
    ['a newline', 'https://docs.example/\nx'],
    ['a NUL', 'https://docs.example/\u0000'],
    ['a relative path', '/etc/passwd'],
    ['no host', 'https://'],
    ['an overlong address', `https://docs.example/${'a'.repeat(2100)}`],
  ])('never hands %s to the system browser', (_name, url) => {
    expect(openExternally(url)).toBe(false)
    expect(electron.openExternal).not.toHaveBeenCalled()
  })

  it('hands over the normalised https address', () => {
    expect(openExternally('https://Docs.Example/a/../help?q=1#top')).toBe(true)
    expect(electron.openExternal).toHaveBeenCalledWith('https://docs.example/help?q=1#top')
  })

  it('refuses to attach webviews', () => {
    expect(contents.fire('will-attach-webview', {}, {})).toBe(true)
  })

  it('guards every web contents the app creates', () => {
    const listeners = new Map<string, (...args: unknown[]) => void>()
    installAppGuards({ on: (name: string, fn: never) => listeners.set(name, fn) } as never)
    const created = new FakeContents()
    listeners.get('web-contents-created')?.({}, created)
    expect(created.fire('will-navigate', 'https://evil.example/')).toBe(true)
    expect(created.openHandler?.({ url: 'https://x.example/' })).toEqual({ action: 'deny' })
  })
})

describe('permissions', () => {
  function harden() {
    let request: Handler = () => {}
    let check: Handler = () => true
    let device: Handler = () => true
    hardenSession({
      setPermissionRequestHandler: (fn: Handler) => (request = fn),
      setPermissionCheckHandler: (fn: Handler) => (check = fn),
      setDevicePermissionHandler: (fn: Handler) => (device = fn),
    } as never)
    return { request, check, device }
  }

  it('grants no device (USB, HID, serial, Bluetooth), even to the app', () => {
    const { device } = harden()
    for (const deviceType of ['usb', 'hid', 'serial', 'bluetooth'])
      expect(device({ deviceType, origin: 'app://scandesk' })).toBe(false)
  })

  it('denies every permission request and check but notifications', () => {
    const { request, check } = harden()
    for (const permission of ['media', 'geolocation', 'clipboard-read', 'openExternal']) {
      const callback = vi.fn()
      request({}, permission, callback, { requestingUrl: 'app://scandesk/index.html' })
      expect(callback).toHaveBeenCalledWith(false)
      expect(check({}, permission, 'app://scandesk')).toBe(false)
    }
  })

  it('grants notifications to the app’s own pages only', () => {
    const { request, check } = harden()
    const asked = (url: string) => {
      const callback = vi.fn()
      request({}, 'notifications', callback, { requestingUrl: url })
      return callback.mock.calls[0][0]
    }
    expect(asked('app://scandesk/index.html')).toBe(true)
    expect(asked('https://evil.example/')).toBe(false)
    expect(asked('app://scandesk.evil.example/')).toBe(false)
    expect(check({}, 'notifications', 'app://scandesk')).toBe(true)
    expect(check({}, 'notifications', 'https://evil.example')).toBe(false)
  })
})

describe('a renderer that goes away', () => {
  it('reloads the start page after a crash, three times a minute at most, never after a clean exit', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const window = createAppWindow({ preloadPath: '/p.js', devTools: false }) as unknown as {
      webContents: FakeContents
    }
    const record = electron.created.at(-1)!
    const loadsBefore = record.loaded.length
    window.webContents.fire('render-process-gone', { reason: 'clean-exit', exitCode: 0 })
    expect(record.loaded.length).toBe(loadsBefore)
    for (let i = 0; i < 5; i++)
      window.webContents.fire('render-process-gone', { reason: 'crashed', exitCode: 139 })
    expect(record.loaded.slice(loadsBefore)).toEqual([
      'app://scandesk/index.html',
      'app://scandesk/index.html',
      'app://scandesk/index.html',
    ])
    expect(errors).toHaveBeenCalledTimes(5)
    errors.mockRestore()
  })
})
