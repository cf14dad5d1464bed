import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { createAccountClient } from './client'
import type { StreamHead } from './stream'
import { startTestServer, type TestServer } from './test-server'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

function client(baseUrl = server.baseUrl, signedIn = true) {
  return createAccountClient({
    baseUrl,
    apiKey: 'stream-key',
    getAuth: () => (signedIn ? { scheme: 'Bearer', token: 'stream-token' } : null),
    release: 'latest',
  })
}

describe('streaming a download', () => {
  it('keeps the base path, puts the id in the path, sends the query and the credentials', async () => {
    server.seen.length = 0
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '9' })
      res.end('%PDF-1.4\n')
    })
    const chunks: Buffer[] = []
    let head: StreamHead | null = null
    const c = client(`${server.baseUrl}/api/`)
    const result = await c.download(
      'reports.download',
      { path: { id: 'rpt_1' }, query: { format: 'pdf' } },
      { start: (h) => void (head = h), write: (chunk) => void chunks.push(chunk) },
    )
    c.close()
    expect(server.seen[0].url).toBe('/api/v2/reports/rpt_1/download?format=pdf')
    expect(server.seen[0].headers).toMatchObject({
      'x-api-key': 'stream-key',
      authorization: 'Bearer stream-token',
      'accept-encoding': 'identity',
    })
    expect(head).toEqual({ status: 200, contentLength: 9, contentType: 'application/pdf' })
    expect(result.bytes).toBe(9)
    expect(Buffer.concat(chunks).toString()).toBe('%PDF-1.4\n')
  })

  it('refuses operations that are not downloads, and needs a signed-in account', async () => {
    const sink = { write: () => undefined }
    const c = client()
    await expect(c.download('reports.list', {}, sink)).rejects.toMatchObject({
      error: { code: 'BAD_REQUEST' },
    })
    c.close()
    const out = client(server.baseUrl, false)
    const err = await out
      .download('reports.download', { path: { id: 'r1' }, query: { format: 'pdf' } }, sink)
      .catch((e: unknown) => e)
    out.close()
    expect(err).toBeInstanceOf(AppFailure)
    expect((err as AppFailure).error.code).toBe('NOT_SIGNED_IN')
  })

  it('a path parameter that is a traversal is refused before anything is sent', async () => {
    server.seen.length = 0
    const c = client()
    await expect(
      c.download(
        'reports.download',
        { path: { id: '../x' }, query: { format: 'pdf' } },
        {
          write: () => undefined,
        },
      ),
    ).rejects.toMatchObject({ error: { code: 'VALIDATION' } })
    c.close()
    expect(server.seen).toHaveLength(0)
  })
})
