import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../server'
import { etagOf, noneMatchHit } from './respond'
import { startTestSandbox } from './testing'

interface Answer {
  status: number
  etag: string | null
  text: string
}

/** A request as an admin with optional If-None-Match and JSON body. */
async function send(
  sb: RunningSandbox,
  token: string,
  method: string,
  path: string,
  opts: { ifNoneMatch?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    'x-api-key': sb.apiKey,
    authorization: `Bearer ${token}`,
  }
  if (opts.ifNoneMatch !== undefined) headers['if-none-match'] = opts.ifNoneMatch
  if (opts.body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${sb.baseUrl}${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  })
  return { status: res.status, etag: res.headers.get('etag'), text: await res.text() }
}

describe('matching If-None-Match', () => {
  const tag = '"abc"'

  it('matches *, the same tag, a weak form of it and a list naming it', () => {
    expect(noneMatchHit('*', tag)).toBe(true)
    expect(noneMatchHit('"abc"', tag)).toBe(true)
    expect(noneMatchHit('W/"abc"', tag)).toBe(true)
    expect(noneMatchHit('"x", W/"y" ,"abc"', tag)).toBe(true)
  })

  it('does not match another tag, a part of it, an unquoted tag or no header', () => {
    expect(noneMatchHit('"abcd"', tag)).toBe(false)
    expect(noneMatchHit('"x", "ab"', tag)).toBe(false)
    expect(noneMatchHit('abc', tag)).toBe(false)
    expect(noneMatchHit('', tag)).toBe(false)
    expect(noneMatchHit(undefined, tag)).toBe(false)
  })

  it('makes a strong tag of 27 base64url characters that changes with any byte', () => {
    const a = etagOf(Buffer.from('{"data":1}'))
    expect(a).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
    expect(etagOf(Buffer.from('{"data":1}'))).toBe(a)
    expect(etagOf(Buffer.from('{"data":2}'))).not.toBe(a)
  })
})

describe('conditional GETs over HTTP', () => {
  let sb: RunningSandbox
  let admin: string

  beforeAll(async () => {
    sb = await startTestSandbox()
  })
  afterAll(() => sb.close())
  beforeEach(() => {
    sb.reset()
    admin = sb.sessionFor('admin@sandbox.test')
  })

  it('sends the ETag of the exact body bytes on a JSON GET', async () => {
    for (const path of ['/v2/targets?per_page=5', '/v2/targets/tgt-001']) {
      const res = await send(sb, admin, 'GET', path)
      expect(res.status, path).toBe(200)
      expect(res.etag, path).toBe(etagOf(Buffer.from(res.text)))
    }
  })

  it('answers 304 with no body and the same ETag when If-None-Match names it', async () => {
    const first = await send(sb, admin, 'GET', '/v2/targets?per_page=5')
    const etag = first.etag!
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await send(sb, admin, 'GET', '/v2/targets?per_page=5', { ifNoneMatch })
      expect(again.status, ifNoneMatch).toBe(304)
      expect(again.text, ifNoneMatch).toBe('')
      expect(again.etag, ifNoneMatch).toBe(etag)
    }
    const other = await send(sb, admin, 'GET', '/v2/targets?per_page=5', { ifNoneMatch: '"x"' })
    expect(other.status).toBe(200)
    expect(other.text).toBe(first.text)
  })

  it('answers 200 with a new ETag once the listed items changed', async () => {
    const list = '/v2/targets?per_page=5'
    const before = await send(sb, admin, 'GET', list)
    const shown = await send(sb, admin, 'GET', '/v2/targets/tgt-001')
    const put = await send(sb, admin, 'PUT', '/v2/targets/tgt-001', {
      body: { description: 'changed' },
    })
    expect(put.status).toBe(200)
    for (const [path, old] of [
      [list, before],
      ['/v2/targets/tgt-001', shown],
    ] as const) {
      const after = await send(sb, admin, 'GET', path, { ifNoneMatch: old.etag! })
      expect(after.status, path).toBe(200)
      expect(after.text, path).toContain('changed')
      expect(after.etag, path).not.toBe(old.etag)
      const current = await send(sb, admin, 'GET', path, { ifNoneMatch: after.etag! })
      expect(current.status, path).toBe(304)
    }
  })

  it('never gives a write an ETag or a 304', async () => {
    const created = await send(sb, admin, 'POST', '/v2/targets', {
      body: { name: 'New one', address: '192.0.2.1' },
      ifNoneMatch: '*',
    })
    expect(created.status).toBe(201)
    expect(created.etag).toBeNull()
    const updated = await send(sb, admin, 'PUT', '/v2/targets/tgt-001', {
      body: { description: 'x' },
      ifNoneMatch: '*',
    })
    expect(updated.status).toBe(200)
    expect(updated.etag).toBeNull()
    const signIn = await send(sb, admin, 'POST', '/v2/targets/test_sign_in', {
      body: { email: 'who@example.test' },
    })
    expect(signIn.status).toBe(200)
    expect(signIn.etag).toBeNull()
  })

  it('never gives a download an ETag or a 304', async () => {
    for (const path of [
      '/v2/targets/tgt-001/test_download',
      '/v2/targets/tgt-001/test_download?stream=1',
    ]) {
      const res = await send(sb, admin, 'GET', path, { ifNoneMatch: '*' })
      expect(res.status, path).toBe(200)
      expect(res.etag, path).toBeNull()
      expect(res.text.length, path).toBeGreaterThan(0)
    }
  })

  it('never gives an error an ETag, also when a fault answers', async () => {
    const missing = await send(sb, admin, 'GET', '/v2/targets/tgt-999', { ifNoneMatch: '*' })
    expect(missing.status).toBe(404)
    expect(missing.etag).toBeNull()
    const etag = (await send(sb, admin, 'GET', '/v2/targets/tgt-001')).etag!
    sb.setFaults({ rateLimitEvery: 1 })
    const limited = await send(sb, admin, 'GET', '/v2/targets/tgt-001', { ifNoneMatch: etag })
    expect(limited.status).toBe(429)
    expect(limited.etag).toBeNull()
    sb.setFaults({ rateLimitEvery: 0, errorRate: 1 })
    const failed = await send(sb, admin, 'GET', '/v2/targets/tgt-001', { ifNoneMatch: etag })
    expect(failed.status).toBe(500)
    expect(failed.etag).toBeNull()
  })

  it('answers a whole 304 while answers are cut mid-body (it has no body to cut)', async () => {
    const etag = (await send(sb, admin, 'GET', '/v2/targets/tgt-001')).etag!
    sb.setFaults({ dropMidBody: true })
    const res = await send(sb, admin, 'GET', '/v2/targets/tgt-001', { ifNoneMatch: etag })
    expect(res.status).toBe(304)
    expect(res.etag).toBe(etag)
  })
})
