import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  accountWindowAddress,
  AccountWindows,
  LOAD_WAIT_MS,
  MainWindowSlot,
  type TrackedWindow,
} from './window-registry'

type Listener = () => void

/** A window stand-in: records focus and restore, fires its own and its page's events. */
function fakeWindow(visible = true) {
  const own = new Map<string, Listener[]>()
  const page = new Map<string, Listener[]>()
  const add = (map: Map<string, Listener[]>, name: string, fn: Listener) =>
    map.set(name, [...(map.get(name) ?? []), fn])
  const w = {
    destroyed: false,
    visible,
    minimized: false,
    focused: 0,
    restored: 0,
    isDestroyed: () => w.destroyed,
    isVisible: () => w.visible,
    isMinimized: () => w.minimized,
    restore: () => void w.restored++,
    focus: () => void w.focused++,
    once: (name: string, fn: Listener) => add(own, name, fn),
    webContents: { once: (name: string, fn: Listener) => add(page, name, fn) },
    close() {
      w.destroyed = true
      for (const fn of own.get('closed') ?? []) fn()
    },
    load: (name = 'did-finish-load') => (page.get(name) ?? []).forEach((fn) => fn()),
  }
  return w satisfies TrackedWindow
}

afterEach(() => vi.useRealTimers())

describe('the address of an account window', () => {
  it('pins the renderer to the account with the hash router at its root', () => {
    expect(accountWindowAddress('acc_7')).toBe('app://scandesk/index.html?account=acc_7#/')
    expect(accountWindowAddress('a b&c')).toBe('app://scandesk/index.html?account=a%20b%26c#/')
  })
})

describe('the main window', () => {
  it('restores a minimized main window and waits for nothing once loaded', async () => {
    const created: ReturnType<typeof fakeWindow>[] = []
    const slot = new MainWindowSlot(() => {
      const w = fakeWindow()
      created.push(w)
      return w
    })
    slot.open()
    created[0].load()
    created[0].minimized = true
    await slot.show()
    expect(created).toHaveLength(1)
    expect(created[0].restored).toBe(1)
    expect(created[0].focused).toBe(1)
  })

  it('does not focus a window that has not shown itself yet', async () => {
    const w = fakeWindow(false)
    const slot = new MainWindowSlot(() => w)
    slot.open()
    const shown = slot.show()
    w.load('did-fail-load')
    await shown
    expect(w.focused).toBe(0)
  })

  it('gives up waiting for a page that never loads', async () => {
    vi.useFakeTimers()
    const slot = new MainWindowSlot(() => fakeWindow())
    let done = false
    void slot.show().then(() => (done = true))
    await vi.advanceTimersByTimeAsync(LOAD_WAIT_MS - 1)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(done).toBe(true)
  })
})

describe('account windows', () => {
  it('keeps one window per account and forgets a closed one', () => {
    const addresses: string[] = []
    const windows = new AccountWindows((address) => (addresses.push(address), fakeWindow()))
    const first = windows.show('acc_1')
    expect(windows.show('acc_1')).toBe(first)
    expect(first.focused).toBe(1)
    windows.show('acc_2')
    expect(windows.accounts()).toEqual(['acc_1', 'acc_2'])
    first.close()
    expect(windows.accounts()).toEqual(['acc_2'])
    expect(windows.show('acc_1')).not.toBe(first)
    expect(addresses).toEqual([
      accountWindowAddress('acc_1'),
      accountWindowAddress('acc_2'),
      accountWindowAddress('acc_1'),
    ])
  })

  it('tells who asked when an account’s window closes (core aborts its calls)', () => {
    const closed: string[] = []
    const windows = new AccountWindows(
      () => fakeWindow(),
      (id) => closed.push(id),
    )
    windows.show('acc_1').close()
    windows.show('acc_2')
    expect(closed).toEqual(['acc_1'])
  })
})
