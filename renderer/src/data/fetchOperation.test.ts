import { afterEach, describe, expect, it, vi } from 'vitest'
import { fetchOperation } from './fetchOperation'

afterEach(() => {
  vi.unstubAllGlobals()
  sessionStorage.clear()
})

describe('a read in browser mode, left before it answers', () => {
  it('lets go of its HTTP request, cancels it in main and rejects with the reason', async () => {
    const posted: { url: string; body: { op?: string; requestId?: string } }[] = []
    // api.call waits until its signal aborts (a request on its way); api.cancel answers at once
    const fetch = vi.fn((url: string, init?: RequestInit) => {
      posted.push({ url, body: JSON.parse(String(init?.body)) })
      if (url.endsWith('/api.cancel'))
        return Promise.resolve(new Response(JSON.stringify({ ok: true, data: {} })))
      return new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
      )
    })
    vi.stubGlobal('fetch', fetch)
    sessionStorage.setItem('scandesk-bridge-key', 'k'.repeat(43))

    const left = new AbortController()
    const read = fetchOperation(
      'acct-0001',
      'scans.history',
      { path: { id: 'scn-1' }, query: { per_page: 100 } },
      left.signal,
    )
    expect(fetch.mock.calls[0][1]?.signal).toBe(left.signal)
    const reason = new DOMException('left the dashboard', 'AbortError')
    left.abort(reason)
    await expect(read).rejects.toBe(reason)

    const call = posted.find((p) => p.url.endsWith('/api.call'))!
    const cancel = posted.find((p) => p.url.endsWith('/api.cancel'))
    expect(call.body.requestId).toMatch(/^r[0-9a-f]{24}$/)
    expect(cancel?.body).toEqual({ requestId: call.body.requestId })
  })
})
