import { afterEach, describe, expect, it, vi } from 'vitest'
import { Fail, installFakeScandesk } from '@/test/fakeScandesk'
import { bridgeKind, callApi, on, request } from './bridge'

afterEach(() => {
  delete window.scandesk
  vi.unstubAllGlobals()
})

describe('the bridge in Electron', () => {
  it('calls the preload function of the channel and parses its JSON text', async () => {
    const fake = installFakeScandesk()
    fake.handle('settings.get', () => ({ theme: 'dark' }))
    expect(bridgeKind()).toBe('electron')
    expect(await request('settings.get', {})).toEqual({ ok: true, data: { theme: 'dark' } })
    expect(fake.calls).toEqual([{ channel: 'settings.get', payload: {} }])
  })

  it('turns a rejected IPC call into INTERNAL', async () => {
    const fake = installFakeScandesk()
    fake.bridge['app.info'] = () => Promise.reject(new Error('ipc closed'))
    const result = await request('app.info', {})
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } })
    if (!result.ok) expect(result.error.message).not.toContain('ipc closed')
  })

  it('wraps api.call with the account, operation, input and request id', async () => {
    const fake = installFakeScandesk()
    fake.handle('api.call', (p: { op: string }) =>
      p.op === 'scans.upcoming'
        ? { data: { data: [] }, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false }
        : new Fail({ code: 'UNKNOWN_OPERATION', message: 'no' }),
    )
    const result = await callApi(
      'acct-0001',
      'scans.upcoming',
      { query: { limit: 5 } },
      'req-12345',
    )
    expect(result).toEqual({
      ok: true,
      data: { data: { data: [] }, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false },
    })
    expect(fake.calls[0].payload).toEqual({
      accountId: 'acct-0001',
      op: 'scans.upcoming',
      input: { query: { limit: 5 } },
      requestId: 'req-12345',
    })
  })

  it('forwards event subscriptions and their removal', () => {
    const fake = installFakeScandesk()
    const seen: unknown[] = []
    const off = on('keychain.status', (p) => seen.push(p))
    fake.emit('keychain.status', { available: false, message: 'locked' })
    off()
    fake.emit('keychain.status', { available: true, message: null })
    expect(seen).toEqual([{ available: false, message: 'locked' }])
  })
})

describe('the bridge in a browser', () => {
  it('uses fetch when there is no preload, with the page key the launch left in this tab', async () => {
    const fetch = vi.fn(
      async (_url: string, _init?: RequestInit) =>
        new Response(JSON.stringify({ ok: true, data: { theme: 'light' } })),
    )
    vi.stubGlobal('fetch', fetch)
    sessionStorage.setItem('scandesk-bridge-key', 'k'.repeat(43))
    try {
      expect(bridgeKind()).toBe('browser')
      expect(await request('settings.get', {})).toEqual({ ok: true, data: { theme: 'light' } })
      expect(fetch).toHaveBeenCalledWith('/bridge/call/settings.get', expect.anything())
      const headers = fetch.mock.calls[0][1]?.headers as Record<string, string>
      expect(headers['X-ScanDesk-Key']).toBe('k'.repeat(43))
    } finally {
      sessionStorage.clear()
    }
  })

  it('sends nothing from a tab without a page key, and says what to do', async () => {
    const fetch = vi.fn(async () => new Response('{}'))
    vi.stubGlobal('fetch', fetch)
    const result = await request('settings.get', {})
    expect(fetch).not.toHaveBeenCalled()
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INTERNAL', message: expect.stringMatching(/This tab has no key/) },
    })
  })
})
