import { beforeEach, describe, expect, it, vi } from 'vitest'
import { CHANNEL_NAMES, requestChannel } from '@contract/channel-names'
import { CoreEvents } from '../core/events'
import type { CallContext } from '../core/handlers/dispatch'

type InvokeHandler = (
  event: { senderFrame: unknown; sender?: { id: number } | null },
  payload: unknown,
) => Promise<string>

const electron = vi.hoisted(() => ({
  handlers: new Map<string, InvokeHandler>(),
  windows: [] as { destroyed: boolean; sent: [string, unknown][]; id?: number }[],
}))

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: InvokeHandler) => electron.handlers.set(channel, fn),
    removeHandler: (channel: string) => electron.handlers.delete(channel),
  },
  BrowserWindow: {
    getAllWindows: () =>
      electron.windows.map((w) => ({
        isDestroyed: () => w.destroyed,
        webContents: {
          id: w.id ?? -1,
          send: (channel: string, payload: unknown) => w.sent.push([channel, payload]),
        },
      })),
  },
}))

const { registerIpc } = await import('./ipc')

const appFrame = { url: 'app://scandesk/index.html#/scans', parent: null }
/** The web contents of the one app window the tests open (id 7). */
const appWindow = { id: 7 }
const openAppWindow = () => electron.windows.push({ destroyed: false, sent: [], id: 7 })

function fakeCore() {
  const calls: { channel: string; payload: unknown; ctx: CallContext }[] = []
  return {
    calls,
    events: new CoreEvents(),
    async dispatch(channel: string, payload: unknown, ctx: CallContext) {
      calls.push({ channel, payload, ctx })
      return JSON.stringify({ ok: true, data: channel })
    },
  }
}

beforeEach(() => {
  electron.handlers.clear()
  electron.windows.length = 0
})

describe('IPC wiring', () => {
  it('registers exactly one handler per channel and nothing else', () => {
    registerIpc(fakeCore())
    expect([...electron.handlers.keys()].sort()).toEqual(CHANNEL_NAMES.map(requestChannel).sort())
    expect(electron.handlers.has('call:secrets.dump')).toBe(false)
  })

  it('forwards a call from the app frame to dispatch with origin electron', async () => {
    const core = fakeCore()
    openAppWindow()
    registerIpc(core)
    const answer = await electron.handlers.get('call:settings.set')!(
      { senderFrame: appFrame, sender: appWindow },
      { theme: 'dark' },
    )
    expect(JSON.parse(answer)).toEqual({ ok: true, data: 'settings.set' })
    expect(core.calls).toEqual([
      { channel: 'settings.set', payload: { theme: 'dark' }, ctx: { origin: 'electron' } },
    ])
  })

  it.each([
    ['a foreign page', { url: 'https://evil.example/', parent: null }],
    ['a subframe of the app', { url: 'app://scandesk/index.html', parent: appFrame }],
    ['a look-alike host', { url: 'app://scandesk.evil/index.html', parent: null }],
    ['a file page', { url: 'file:///tmp/index.html', parent: null }],
    ['a destroyed frame', null],
  ])('refuses a call from %s before any work', async (_label, frame) => {
    const core = fakeCore()
    const warnings: string[] = []
    openAppWindow()
    registerIpc(core, (_level, message) => warnings.push(message))
    const answer = JSON.parse(
      await electron.handlers.get('call:accounts.list')!(
        { senderFrame: frame, sender: appWindow },
        {},
      ),
    )
    expect(answer.ok).toBe(false)
    expect(answer.error.code).toBe('FORBIDDEN')
    expect(core.calls).toEqual([])
    expect(warnings).toHaveLength(1)
  })

  it.each([
    ['a web contents that is no window of ours', { id: 99 }],
    ['no web contents', null],
  ])('refuses an app frame in %s', async (_label, sender) => {
    const core = fakeCore()
    openAppWindow()
    registerIpc(core)
    const answer = JSON.parse(
      await electron.handlers.get('call:accounts.list')!({ senderFrame: appFrame, sender }, {}),
    )
    expect(answer.error.code).toBe('FORBIDDEN')
    expect(core.calls).toEqual([])
  })

  it('refuses a window of ours once it is destroyed', async () => {
    const core = fakeCore()
    electron.windows.push({ destroyed: true, sent: [], id: 7 })
    registerIpc(core)
    const answer = JSON.parse(
      await electron.handlers.get('call:accounts.list')!(
        { senderFrame: appFrame, sender: appWindow },
        {},
      ),
    )
    expect(answer.error.code).toBe('FORBIDDEN')
  })

  it('forwards every core event to every live window, payload only', () => {
    const core = fakeCore()
    electron.windows.push({ destroyed: false, sent: [] }, { destroyed: true, sent: [] })
    registerIpc(core)
    const status = { available: false, message: 'Keychain locked' }
    core.events.emit('keychain.status', status)
    expect(electron.windows[0].sent).toEqual([['event:keychain.status', status]])
    expect(electron.windows[1].sent).toEqual([])
  })

  it('sends an event only to the windows the route picks', () => {
    const core = fakeCore()
    electron.windows.push({ destroyed: false, sent: [] }, { destroyed: false, sent: [] })
    const mainWindow = {
      isDestroyed: () => false,
      webContents: {
        send: (channel: string, payload: unknown) =>
          electron.windows[0].sent.push([channel, payload]),
      },
    }
    registerIpc(core, undefined, (name) => (name === 'links.opened' ? [mainWindow as never] : null))
    const view = {
      linkId: 'x'.repeat(20),
      kind: 'sso',
      host: 'h',
      accountIds: [],
      needsPassword: false,
    }
    core.events.emit('links.opened', view as never)
    core.events.emit('keychain.status', { available: true, message: null })
    expect(electron.windows[0].sent.map(([c]) => c)).toEqual([
      'event:links.opened',
      'event:keychain.status',
    ])
    expect(electron.windows[1].sent.map(([c]) => c)).toEqual(['event:keychain.status'])
  })

  it('stops forwarding and removes its handlers when undone', () => {
    const core = fakeCore()
    electron.windows.push({ destroyed: false, sent: [] })
    const undo = registerIpc(core)
    undo()
    core.events.emit('keychain.status', { available: true, message: null })
    expect(electron.windows[0].sent).toEqual([])
    expect(electron.handlers.size).toBe(0)
  })
})
