import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { call, startTestSandbox } from './engine/testing'
import { startSandbox, type RunningSandbox } from './server'

describe('the sandbox over HTTP', () => {
  let sb: RunningSandbox
  let admin: string
  let analyst: string
  let customer: string

  beforeAll(async () => {
    sb = await startTestSandbox({ sessionTtlMs: 60_000 })
  })
  afterAll(() => sb.close())
  beforeEach(() => {
    sb.reset()
    admin = sb.sessionFor('admin@sandbox.test')
    analyst = sb.sessionFor('analyst@sandbox.test')
    customer = sb.sessionFor('customer@globex.test')
  })

  describe('authentication', () => {
    it('refuses every request without the right x-api-key, even pre-session operations', async () => {
      for (const apiKey of [null, 'wrong-key']) {
        const res = await call(sb, 'GET', '/v2/targets', { token: admin, apiKey })
        expect(res.status).toBe(401)
        expect(res.json.error).toBe('Unauthorized')
        expect(res.json.errors[0]).toMatchObject({ status: '401', title: 'Unauthorized' })
      }
      const pre = await call(sb, 'POST', '/v2/targets/test_sign_in', {
        body: { email: 'x' },
        apiKey: null,
      })
      expect(pre.status).toBe(401)
      const ok = await call(sb, 'POST', '/v2/targets/test_sign_in', { body: { email: 'x' } })
      expect(ok.status).toBe(200)
    })

    it('needs a Bearer or Basic token for user operations', async () => {
      expect((await call(sb, 'GET', '/v2/targets')).status).toBe(401)
      expect((await call(sb, 'GET', '/v2/targets', { token: 'f'.repeat(64) })).status).toBe(401)
      expect((await call(sb, 'GET', '/v2/targets', { token: admin })).status).toBe(200)
    })

    it('resolves a Basic access token until it is revoked', async () => {
      expect((await call(sb, 'GET', '/v2/targets', { basic: 'not-a-token' })).status).toBe(401)
      const first = await call(sb, 'PUT', '/v2/targets/test_access_token', { token: customer })
      const second = await call(sb, 'PUT', '/v2/targets/test_access_token', { token: customer })
      const token = second.json.data.token as string
      expect(token).toMatch(/^[0-9a-f]{64}$/)
      // A new access token replaces the previous one.
      expect((await call(sb, 'GET', '/v2/targets', { basic: first.json.data.token })).status).toBe(
        401,
      )
      const list = await call(sb, 'GET', '/v2/targets', { basic: token })
      expect(list.status).toBe(200)
      expect(list.json.meta.pagination.total_count).toBe(20) // resolved as the org-002 customer
      // Access tokens do not expire with the session lifetime.
      sb.advanceClock(10 * 60_000)
      expect((await call(sb, 'GET', '/v2/targets', { basic: token })).status).toBe(200)
      await call(sb, 'DELETE', '/v2/targets/test_access_token', { basic: token })
      expect((await call(sb, 'GET', '/v2/targets', { basic: token })).status).toBe(401)
    })

    it('gives every session a different unguessable token, also across identical seeds', async () => {
      const other = await startTestSandbox()
      try {
        const tokens = [
          admin,
          analyst,
          sb.sessionFor('admin@sandbox.test'),
          other.sessionFor('admin@sandbox.test'),
        ]
        expect(new Set(tokens).size).toBe(4)
        for (const t of tokens) expect(t).toMatch(/^[0-9a-f]{64}$/)
        expect((await call(sb, 'GET', '/v2/targets', { token: tokens[3] })).status).toBe(401)
      } finally {
        await other.close()
      }
    })

    it('expires sessions after the session lifetime by the sandbox clock', async () => {
      expect((await call(sb, 'GET', '/v2/targets', { token: analyst })).status).toBe(200)
      sb.advanceClock(61_000)
      expect((await call(sb, 'GET', '/v2/targets', { token: analyst })).status).toBe(401)
    })

    it('forgets every session on reset', async () => {
      sb.reset()
      expect((await call(sb, 'GET', '/v2/targets', { token: admin })).status).toBe(401)
    })
  })

  describe('routing', () => {
    it('answers 404 for unknown paths and unknown ids, 405 for a wrong method', async () => {
      const unknown = await call(sb, 'GET', '/v2/nothing_here', { token: admin })
      expect(unknown.status).toBe(404)
      expect(unknown.json.error).toBe('Record Not Found')
      expect((await call(sb, 'GET', '/v2/targets/tgt-999', { token: admin })).status).toBe(404)
      const wrong = await call(sb, 'PATCH', '/v2/targets', { token: admin })
      expect(wrong.status).toBe(405)
      expect(wrong.headers.get('allow')).toContain('GET')
    })

    it('prefers literal segments over parameters', async () => {
      const bulk = await call(sb, 'POST', '/v2/targets/bulk_delete', {
        token: admin,
        body: { ids: ['tgt-001', 'tgt-404'] },
      })
      expect(bulk.status).toBe(200)
      expect(bulk.json.data).toEqual({ deleted: ['tgt-001'], not_found: ['tgt-404'] })
    })

    it('answers 404 for operations outside the running release', async () => {
      const old = await startTestSandbox({ release: '5.3.0' })
      try {
        const token = old.sessionFor('admin@sandbox.test')
        const body = { address: '10.0.0.0/24' }
        const res = await call(old, 'POST', '/v2/targets/calculate_hosts', { token, body })
        expect(res.status).toBe(404)
        expect(res.json.errors[0].detail).toContain('5.3.0')
        expect((await call(old, 'GET', '/v2/targets', { token })).status).toBe(200)
      } finally {
        await old.close()
      }
    })
  })

  describe('validation', () => {
    it('answers 422 with field errors for a bad target body', async () => {
      const res = await call(sb, 'POST', '/v2/targets', {
        token: admin,
        body: { address: 'bad address!', colour: 'red' },
      })
      expect(res.status).toBe(422)
      expect(res.json.error).toBe('Parameter Error')
      expect(res.json.fields.name).toEqual(['is required'])
      expect(res.json.fields.address).toHaveLength(1)
      expect(res.json.fields.colour).toEqual(['is not allowed'])
      const pointers = res.json.errors.map((e: { source: { pointer: string } }) => e.source.pointer)
      expect(pointers).toEqual(expect.arrayContaining(['/name', '/address', '/colour']))
    })

    it('answers 422 for an unknown query parameter and 400 for broken JSON', async () => {
      const q = await call(sb, 'GET', '/v2/targets?bogus=1', { token: admin })
      expect(q.status).toBe(422)
      expect(q.json.fields).toEqual({ bogus: ['is not a known parameter'] })
      const broken = await call(sb, 'POST', '/v2/targets', { token: admin, raw: '{"name":' })
      expect(broken.status).toBe(400)
    })

    it('refuses a body sent to an operation that takes none', async () => {
      const res = await call(sb, 'DELETE', '/v2/targets/tgt-002', {
        token: admin,
        body: { force: true },
      })
      expect(res.status).toBe(422)
      expect(res.json.fields.base).toBeDefined()
    })

    it('answers 413 beyond 1 MiB of body', async () => {
      const res = await call(sb, 'POST', '/v2/targets', {
        token: admin,
        raw: JSON.stringify({ name: 'x'.repeat(1024 * 1024), address: '10.0.0.1' }),
      })
      expect(res.status).toBe(413)
    })
  })

  describe('generic kinds', () => {
    it('paginates, sorts and searches a list', async () => {
      const page2 = await call(sb, 'GET', '/v2/targets?page=2&per_page=10', { token: admin })
      expect(page2.status).toBe(200)
      expect(page2.json.data.map((r: { id: string }) => r.id)[0]).toBe('tgt-011')
      expect(page2.json.meta.pagination).toEqual({
        current_page: 2,
        per_page: 10,
        total_pages: 6,
        total_count: 60,
      })
      const sorted = await call(sb, 'GET', '/v2/targets?sort=-hosts_count&per_page=60', {
        token: admin,
      })
      const counts = sorted.json.data.map(
        (r: { attributes: { hosts_count: number } }) => r.attributes.hosts_count,
      )
      expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a))
      const found = await call(sb, 'GET', '/v2/targets?search=10.0.4.4', { token: admin })
      expect(found.json.data.map((r: { id: string }) => r.id)).toEqual([
        'tgt-040',
        'tgt-041',
        'tgt-042',
        'tgt-043',
        'tgt-044',
        'tgt-045',
        'tgt-046',
        'tgt-047',
        'tgt-048',
        'tgt-049',
      ])
      const tagged = await call(sb, 'GET', '/v2/targets?tag=pci&per_page=100', { token: admin })
      expect(tagged.json.meta.pagination.total_count).toBe(20)
    })

    it('scopes rows to the caller organization (root administrators see all)', async () => {
      const mine = await call(sb, 'GET', '/v2/targets', { token: customer })
      expect(mine.json.meta.pagination.total_count).toBe(20)
      expect((await call(sb, 'GET', '/v2/targets/tgt-001', { token: customer })).status).toBe(404)
      expect((await call(sb, 'GET', '/v2/targets/tgt-041', { token: customer })).status).toBe(200)
      const analystView = await call(sb, 'GET', '/v2/targets', { token: analyst })
      expect(analystView.json.meta.pagination.total_count).toBe(40)
    })

    it('creates, shows, updates and deletes a row', async () => {
      const created = await call(sb, 'POST', '/v2/targets', {
        token: customer,
        body: { name: 'New one', address: '192.0.2.1' },
      })
      expect(created.status).toBe(201)
      expect(created.json.data).toMatchObject({ id: 'tgt-061', type: 'target' })
      expect(created.json.data.attributes).toMatchObject({
        name: 'New one',
        hosts_count: 1,
        tags: [],
      })
      expect(created.json.data.attributes.created_at).toBeTypeOf('string')
      expect((await call(sb, 'GET', '/v2/targets/tgt-061', { token: analyst })).status).toBe(404)
      const updated = await call(sb, 'PUT', '/v2/targets/tgt-061', {
        token: customer,
        body: { description: 'changed' },
      })
      expect(updated.json.data.attributes).toMatchObject({
        name: 'New one',
        description: 'changed',
      })
      const deleted = await call(sb, 'DELETE', '/v2/targets/tgt-061', { token: customer })
      expect(deleted.json).toEqual({ data: { id: 'tgt-061', deleted: true } })
      expect((await call(sb, 'GET', '/v2/targets/tgt-061', { token: customer })).status).toBe(404)
    })
  })

  describe('control endpoints', () => {
    it('exist in test mode and still need the api key', async () => {
      expect((await call(sb, 'POST', '/__control/reset', { apiKey: null })).status).toBe(401)
      await call(sb, 'POST', '/v2/targets/test_sign_in', { body: { email: 'who@example.test' } })
      const log = await call(sb, 'GET', '/__control/log')
      expect(log.status).toBe(200)
      expect(log.json.data.lines).toContain('test sign-in for who@example.test')
      await call(sb, 'DELETE', '/v2/targets/tgt-005', { token: admin })
      expect((await call(sb, 'POST', '/__control/reset')).status).toBe(200)
      const token = sb.sessionFor('admin@sandbox.test')
      expect((await call(sb, 'GET', '/v2/targets/tgt-005', { token })).status).toBe(200)
    })

    it('move the sandbox clock', async () => {
      const res = await call(sb, 'POST', '/__control/clock', { body: { advanceMs: 86_400_000 } })
      expect(res.status).toBe(200)
      expect(Date.parse(res.json.data.now) - Date.now()).toBeGreaterThan(86_000_000)
    })

    it('are plain 404 without test mode', async () => {
      const plain = await startTestSandbox({ testMode: false })
      try {
        for (const [method, path] of [
          ['POST', '/__control/reset'],
          ['POST', '/__control/faults'],
          ['GET', '/__control/log'],
        ]) {
          expect((await call(plain, method, path)).status).toBe(404)
        }
      } finally {
        await plain.close()
      }
    })
  })

  describe('seeding', () => {
    it('is deterministic for a seed and differs across seeds', async () => {
      const list = async (s: RunningSandbox) => {
        const token = s.sessionFor('admin@sandbox.test')
        const res = await call(s, 'GET', '/v2/targets?per_page=100', { token })
        return res.json.data.map(
          (r: { id: string; attributes: { name: string; hosts_count: number } }) => [
            r.id,
            r.attributes.name,
            r.attributes.hosts_count,
          ],
        )
      }
      const [a, b, c] = await Promise.all([
        startTestSandbox({ seed: 7 }),
        startTestSandbox({ seed: 7 }),
        startTestSandbox({ seed: 8 }),
      ])
      try {
        const [la, lb, lc] = [await list(a), await list(b), await list(c)]
        expect(la).toHaveLength(60)
        expect(lb).toEqual(la)
        expect(lc).not.toEqual(la)
      } finally {
        await Promise.all([a.close(), b.close(), c.close()])
      }
    })

    it('seeds the real domains identically for the same seed', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sandbox-seed-'))
      try {
        const files = [join(dir, 'a.json'), join(dir, 'b.json')]
        const boxes = await Promise.all(
          files.map((dataFile) => startSandbox({ port: 0, seed: 11, dataFile, log: () => {} })),
        )
        await Promise.all(boxes.map((b) => b.close()))
        // Timestamps derive from the moment each sandbox started, and so do SHA-256 hashes of
        // generated files that print a date; everything else must match.
        const visible = (file: string) => {
          const { state } = JSON.parse(readFileSync(file, 'utf8'))
          const shown = Object.fromEntries(
            Object.entries(
              state.collections as Record<string, Record<string, { attributes: unknown }>>,
            ).map(([name, rows]) => [
              name,
              Object.entries(rows).map(([id, r]) => [id, r.attributes]),
            ]),
          )
          return JSON.stringify({ shown, counters: state.counters })
            .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'T')
            .replace(/\b[0-9a-f]{64}\b/g, 'H')
        }
        expect(visible(files[1])).toEqual(visible(files[0]))
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })
  })
})
