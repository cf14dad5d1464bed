import { describe, expect, it, vi } from 'vitest'
import { createBrowserTransport } from './browser'

function okFetch(body: string, status = 200) {
  return vi.fn(
    async (_url: RequestInfo | URL, _init?: RequestInit) => new Response(body, { status }),
  )
}

class FakeEventSource {
  static last: FakeEventSource | null = null
  readonly url: string
  private readonly handlers = new Map<string, ((e: MessageEvent) => void)[]>()
  constructor(url: string) {
    this.url = url
    FakeEventSource.last = this
  }
  addEventListener(name: string, handler: (e: MessageEvent) => void) {
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler])
  }
  push(name: string, data: string) {
    for (const h of this.handlers.get(name) ?? []) h(new MessageEvent(name, { data }))
  }
}

const KEY = 'pk_' + 'x'.repeat(40)
const pageKey = () => KEY

describe('browser transport requests', () => {
  it('posts the JSON payload to /bridge/call/<channel> with the cookie and the page key', async () => {
    const fetch = okFetch(JSON.stringify({ ok: true, data: { accounts: [], activeId: null } }))
    const t = createBrowserTransport({ fetch, pageKey })
    const result = await t.request('accounts.list', {})
    expect(result).toEqual({ ok: true, data: { accounts: [], activeId: null } })
    const [url, init] = fetch.mock.calls[0]
    expect(url).toBe('/bridge/call/accounts.list')
    expect(init?.method).toBe('POST')
    expect(init?.credentials).toBe('same-origin')
    expect((init?.headers as Record<string, string>)['content-type']).toBe('application/json')
    expect((init?.headers as Record<string, string>)['X-ScanDesk-Key']).toBe(KEY)
    expect(JSON.parse(String(init?.body))).toEqual({})
  })

  it('sends nothing without a page key (a tab opened by hand), saying what to do', async () => {
    const fetch = okFetch('{}')
    const result = await createBrowserTransport({ fetch, pageKey: () => null }).request(
      'app.info',
      {},
    )
    expect(fetch).not.toHaveBeenCalled()
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.code).toBe('INTERNAL')
      expect(result.error.message).toMatch(/This tab has no key.*new launch address/)
    }
  })

  it('passes a failed Result through unchanged', async () => {
    const error = { code: 'UNAUTHORIZED', message: 'The password is wrong.' }
    const t = createBrowserTransport({
      fetch: okFetch(JSON.stringify({ ok: false, error })),
      pageKey,
    })
    expect(await t.request('accounts.signIn', {})).toEqual({ ok: false, error })
  })

  it('turns a network failure into OFFLINE', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    })
    const result = await createBrowserTransport({ fetch, pageKey }).request('app.info', {})
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.code).toBe('OFFLINE')
  })

  it('turns a refused request (401) into INTERNAL with the status', async () => {
    const result = await createBrowserTransport({ fetch: okFetch('no', 401), pageKey }).request(
      'app.info',
      {},
    )
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.code).toBe('INTERNAL')
      expect(result.error.message).toContain('401')
    }
  })

  it('turns an unreadable body into INTERNAL', async () => {
    const result = await createBrowserTransport({
      fetch: okFetch('<html>proxy</html>'),
      pageKey,
    }).request('app.info', {})
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } })
  })
})

describe('browser transport requests let go when aborted', () => {
  it('hands the signal to fetch, and an abort ends the request as CANCELLED, not OFFLINE', async () => {
    // a fetch that waits until its signal aborts, as the page's does for a request on its way
    const fetch = vi.fn(
      (_url: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
        ),
    )
    const t = createBrowserTransport({ fetch, pageKey })
    const left = new AbortController()
    const pending = t.request('api.call', { accountId: 'a', op: 'scans.history' }, left.signal)
    expect(fetch.mock.calls[0][1]?.signal).toBe(left.signal)
    left.abort(new DOMException('left the screen', 'AbortError'))
    const result = await pending
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.code).toBe('CANCELLED')
  })

  it('a request without a signal gives fetch none', async () => {
    const fetch = okFetch(JSON.stringify({ ok: true, data: {} }))
    await createBrowserTransport({ fetch, pageKey }).request('app.info', {})
    expect(fetch.mock.calls[0][1]).not.toHaveProperty('signal')
  })
})

describe('browser transport events', () => {
  it('opens one event stream and hands parsed payloads to the listeners of that event', async () => {
    const t = createBrowserTransport({
      fetch: okFetch('{}'),
      EventSource: FakeEventSource as unknown as typeof EventSource,
      pageKey,
    })
    const seen: unknown[] = []
    const other: unknown[] = []
    const off = t.on('connectivity', (p) => seen.push(p))
    t.on('keychain.status', (p) => other.push(p))
    const source = FakeEventSource.last!
    // EventSource sends no headers: the page key rides in the stream's query
    expect(source.url).toBe(`/bridge/events?key=${KEY}`)
    source.push('connectivity', JSON.stringify({ accountId: 'a', online: false }))
    source.push('connectivity', 'not json')
    expect(seen).toEqual([{ accountId: 'a', online: false }])
    expect(other).toEqual([])
    off()
    source.push('connectivity', JSON.stringify({ accountId: 'a', online: true }))
    expect(seen).toHaveLength(1)
    t.on('accounts.changed', () => {})
    expect(FakeEventSource.last).toBe(source)
  })
})

describe('browser transport events without a page key', () => {
  it('opens no stream', () => {
    FakeEventSource.last = null
    const t = createBrowserTransport({
      fetch: okFetch('{}'),
      EventSource: FakeEventSource as unknown as typeof EventSource,
      pageKey: () => null,
    })
    t.on('connectivity', () => {})
    expect(FakeEventSource.last).toBeNull()
  })
})
