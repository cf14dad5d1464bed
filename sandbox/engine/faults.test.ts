import { request } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../server'
import { call, startTestSandbox, TEST_FILE } from './testing'

interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  chunks: number
  complete: boolean
}

/** GET with node:http so a cut connection is observed instead of hidden. */
function rawGet(sb: RunningSandbox, path: string, token: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${sb.baseUrl}${path}`, {
      headers: { 'x-api-key': sb.apiKey, authorization: `Bearer ${token}` },
    })
    req.on('response', (res) => {
      const parts: Buffer[] = []
      let done = false
      const finish = (complete: boolean) => {
        if (done) return
        done = true
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(parts),
          chunks: parts.length,
          complete,
        })
      }
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => finish(res.complete))
      res.on('aborted', () => finish(false))
      res.on('error', () => finish(false))
      res.on('close', () => finish(res.complete))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('injected faults', () => {
  let sb: RunningSandbox
  let token: string

  beforeAll(async () => {
    sb = await startTestSandbox()
  })
  afterAll(() => sb.close())
  beforeEach(() => {
    sb.reset()
    token = sb.sessionFor('admin@sandbox.test')
  })

  const statuses = async (n: number, path = '/v2/targets/tgt-001') => {
    const out: number[] = []
    for (let i = 0; i < n; i++) out.push((await call(sb, 'GET', path, { token })).status)
    return out
  }

  it('delays answers by latencyMs', async () => {
    sb.setFaults({ latencyMs: 150 })
    const t0 = performance.now()
    expect((await call(sb, 'GET', '/v2/targets/tgt-001', { token })).status).toBe(200)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140)
  })

  it('answers 500 to the configured fraction, reproducibly for a seed', async () => {
    sb.setFaults({ errorRate: 1 })
    expect(await statuses(3)).toEqual([500, 500, 500])
    sb.reset()
    token = sb.sessionFor('admin@sandbox.test')
    sb.setFaults({ errorRate: 0.5 })
    const first = await statuses(30)
    expect(first.filter((s) => s === 500).length).toBeGreaterThan(3)
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(3)
    sb.reset()
    token = sb.sessionFor('admin@sandbox.test')
    sb.setFaults({ errorRate: 0.5 })
    expect(await statuses(30)).toEqual(first)
  })

  it('answers 429 with Retry-After to every Nth request', async () => {
    sb.setFaults({ rateLimitEvery: 3 })
    const seen: [number, string | null][] = []
    for (let i = 0; i < 6; i++) {
      const res = await call(sb, 'GET', '/v2/targets', { token })
      seen.push([res.status, res.headers.get('retry-after')])
    }
    expect(seen).toEqual([
      [200, null],
      [200, null],
      [429, '1'],
      [200, null],
      [200, null],
      [429, '1'],
    ])
  })

  it('refuses every token after N authenticated requests until reset', async () => {
    sb.setFaults({ unauthorizedAfter: 2 })
    const fresh = sb.sessionFor('analyst@sandbox.test')
    expect(await statuses(2)).toEqual([200, 200])
    expect(await statuses(2)).toEqual([401, 401])
    expect((await call(sb, 'GET', '/v2/targets', { token: fresh })).status).toBe(401)
    sb.reset()
    token = sb.sessionFor('admin@sandbox.test')
    expect(await statuses(3)).toEqual([200, 200, 200])
  })

  it('counts again from zero after a reset when the fault was given at start', async () => {
    const strict = await startTestSandbox({ faults: { unauthorizedAfter: 1 } })
    try {
      let t = strict.sessionFor('admin@sandbox.test')
      expect((await call(strict, 'GET', '/v2/targets', { token: t })).status).toBe(200)
      expect((await call(strict, 'GET', '/v2/targets', { token: t })).status).toBe(401)
      strict.reset()
      t = strict.sessionFor('admin@sandbox.test')
      expect((await call(strict, 'GET', '/v2/targets', { token: t })).status).toBe(200)
    } finally {
      await strict.close()
    }
  })

  it('drops JSON and file answers after half of the announced body', async () => {
    sb.setFaults({ dropMidBody: true })
    for (const path of [
      '/v2/targets?per_page=50',
      '/v2/targets/tgt-001/test_download',
      '/v2/targets/tgt-001/test_download?stream=1',
    ]) {
      const res = await rawGet(sb, path, token)
      expect(res.status, path).toBe(200)
      const announced = Number(res.headers['content-length'])
      expect(res.complete, path).toBe(false)
      expect(res.body.length, path).toBe(Math.floor(announced / 2))
    }
  })

  it('corrupts downloads without changing their length', async () => {
    const clean = await rawGet(sb, '/v2/targets/tgt-001/test_download', token)
    expect(clean.body.equals(TEST_FILE)).toBe(true)
    sb.setFaults({ corruptDownloads: true })
    for (const path of [
      '/v2/targets/tgt-001/test_download',
      '/v2/targets/tgt-001/test_download?stream=1',
    ]) {
      const res = await rawGet(sb, path, token)
      expect(res.complete).toBe(true)
      expect(Number(res.headers['content-length'])).toBe(TEST_FILE.length)
      expect(res.body.length).toBe(TEST_FILE.length)
      expect(res.body.equals(TEST_FILE)).toBe(false)
      // The head survives (a PDF keeps its `%PDF-` header), so clients detect it by hash.
      expect(res.body.subarray(0, 1023).equals(TEST_FILE.subarray(0, 1023))).toBe(true)
    }
    // JSON answers are not corrupted.
    const json = await call(sb, 'GET', '/v2/targets/tgt-001', { token })
    expect(json.json.data.id).toBe('tgt-001')
  })

  it('trickles file answers in small chunks when slow-dripping', async () => {
    sb.setFaults({ slowDripMs: 15 })
    const t0 = performance.now()
    const res = await rawGet(sb, '/v2/targets/tgt-001/test_download', token)
    expect(res.body.equals(TEST_FILE)).toBe(true)
    expect(res.chunks).toBeGreaterThanOrEqual(8)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(10 * 15 - 10)
  })

  it('sends file answers with type, length and a safe attachment name', async () => {
    const res = await rawGet(sb, '/v2/targets/tgt-001/test_download', token)
    expect(res.headers['content-type']).toBe('application/pdf')
    expect(res.headers['content-length']).toBe(String(TEST_FILE.length))
    expect(res.headers['content-disposition']).toBe('attachment; filename="report _tgt-001_.pdf"')
  })

  it('are set and read through the control endpoint, which refuses unknown faults', async () => {
    const set = await call(sb, 'POST', '/__control/faults', { body: { rateLimitEvery: 1 } })
    expect(set.status).toBe(200)
    expect(set.json.data.rateLimitEvery).toBe(1)
    expect((await call(sb, 'GET', '/v2/targets', { token })).status).toBe(429)
    const bad = await call(sb, 'POST', '/__control/faults', { body: { meteorStrike: true } })
    expect(bad.status).toBe(422)
    expect(bad.json.fields.meteorStrike).toBeDefined()
    const off = await call(sb, 'POST', '/__control/faults', { body: { rateLimitEvery: 0 } })
    expect(off.status).toBe(200)
    expect((await call(sb, 'GET', '/v2/targets', { token })).status).toBe(200)
  })
})
