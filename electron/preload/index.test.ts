import { describe, expect, it, vi } from 'vitest'
import { CHANNEL_NAMES } from '@contract/channel-names'

type Listener = (event: unknown, payload: unknown) => void

const electron = vi.hoisted(() => ({
  exposed: new Map<string, Record<string, unknown>>(),
  invoked: [] as [string, unknown][],
  listeners: new Map<string, Set<Listener>>(),
}))

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, api: Record<string, unknown>) =>
      electron.exposed.set(key, api),
  },
  ipcRenderer: {
    invoke: async (channel: string, payload: unknown) => {
      electron.invoked.push([channel, payload])
      return '{"ok":true,"data":null}'
    },
    on: (channel: string, fn: Listener) => {
      if (!electron.listeners.has(channel)) electron.listeners.set(channel, new Set())
      electron.listeners.get(channel)!.add(fn)
    },
    removeListener: (channel: string, fn: Listener) => electron.listeners.get(channel)?.delete(fn),
  },
}))

await import('./index')
const api = electron.exposed.get('scandesk') as Record<string, (...args: unknown[]) => unknown>

function emit(channel: string, payload: unknown) {
  for (const fn of electron.listeners.get(channel) ?? []) fn({ sender: 'ipc-event' }, payload)
}

describe('the preload bridge', () => {
  it('exposes exactly one function per channel plus on, under window.scandesk only', () => {
    expect([...electron.exposed.keys()]).toEqual(['scandesk'])
    expect(Object.keys(api).sort()).toEqual([...CHANNEL_NAMES, 'on'].sort())
    for (const key of Object.keys(api)) expect(typeof api[key]).toBe('function')
  })

  it('invokes the request channel of each function with the payload', async () => {
    expect(await api['accounts.list']({})).toBe('{"ok":true,"data":null}')
    await api['settings.set']({ theme: 'dark' })
    expect(electron.invoked).toEqual([
      ['call:accounts.list', {}],
      ['call:settings.set', { theme: 'dark' }],
    ])
  })

  it('hands listeners the payload only and unsubscribes', () => {
    const seen: unknown[][] = []
    const off = api.on('connectivity', (...args: unknown[]) => seen.push(args)) as () => void
    emit('event:connectivity', { online: true })
    off()
    emit('event:connectivity', { online: false })
    expect(seen).toEqual([[{ online: true }]])
    expect(electron.listeners.get('event:connectivity')?.size).toBe(0)
  })

  it('unsubscribes only its own listener', () => {
    const a: unknown[] = []
    const b: unknown[] = []
    const offA = api.on('accounts.changed', (p: unknown) => a.push(p)) as () => void
    const offB = api.on('accounts.changed', (p: unknown) => b.push(p)) as () => void
    offA()
    emit('event:accounts.changed', 1)
    expect(a).toEqual([])
    expect(b).toEqual([1])
    offB()
  })

  it('refuses unknown events', () => {
    expect(() => api.on('call:accounts.list', () => {})).toThrow(/Unknown ScanDesk event/)
  })

  it('cannot be modified by the page', () => {
    expect(Object.isFrozen(api)).toBe(true)
  })
})
