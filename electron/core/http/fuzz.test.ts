// Fuzzing what the service may answer: malformed and truncated JSON, web pages with 200, wrong
// content types, `__proto__` / `constructor` / `prototype` keys at any depth, numbers beyond 2^53,
// deeply nested arrays, empty 200s and 204s. The harness (test-fuzz.ts) answers a catalog read
// and a catalog write; huge, slow and retried answers are in fuzz-limits.test.ts.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findOperation } from '@contract/catalog/index'
import {
  answer,
  CANARY,
  expectAttempts,
  failed,
  op,
  run,
  server,
  useFuzzServer,
  type Op,
} from './test-fuzz'

useFuzzServer()

const OBJECT_KEYS = Object.getOwnPropertyNames(Object.prototype).sort()
const ARRAY_KEYS = Object.getOwnPropertyNames(Array.prototype).sort()

/** Object.prototype and Array.prototype are as they were: no `polluted`, no new property. */
function expectNoPollution(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined()
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(OBJECT_KEYS)
  expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(ARRAY_KEYS)
}

/** Every object in a checked answer has a standard prototype, and inherits nothing it sent. */
function expectPlainTree(value: unknown, depth = 0): void {
  if (typeof value !== 'object' || value === null || depth > 200) return
  const proto: unknown = Object.getPrototypeOf(value)
  expect([Object.prototype, Array.prototype, null]).toContain(proto)
  if ('polluted' in value) expect(Object.hasOwn(value, 'polluted')).toBe(true)
  for (const v of Object.values(value)) expectPlainTree(v, depth + 1)
}

// ---------------------------------------------------------------- generators of answer bodies

const target = fc.record(
  {
    // Ids follow the id rule in answers as in requests (answer-ids.ts; tested below).
    id: fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
    type: fc.constant('target'),
    attributes: fc.record(
      {
        name: fc.string({ maxLength: 30 }),
        address: fc.string({ maxLength: 30 }),
        description: fc.option(fc.string({ maxLength: 30 })),
        tags: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
        hosts_count: fc.nat(1_000),
      },
      { requiredKeys: ['name', 'address'] },
    ),
  },
  { noNullPrototype: true },
)

/** A body in the shape of the operation's answer (a list, or one target). */
function validBody(id: Op): fc.Arbitrary<unknown> {
  return id === 'targets.list'
    ? fc.record({ data: fc.array(target, { maxLength: 4 }) })
    : fc.record({ data: target })
}

const opAndValidBody = op.chain((id) => validBody(id).map((body) => ({ id, body })))

/** JSON text with prototype-polluting keys at any depth (as text: JSON.stringify would drop them). */
const evilJson: fc.Arbitrary<string> = fc.letrec<{ value: string; object: string; array: string }>(
  (tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant('{"polluted":"yes"}'),
      fc.jsonValue({ maxDepth: 1 }).map((v) => JSON.stringify(v)),
      tie('object'),
      tie('array'),
    ),
    object: fc
      .array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted', 'toString'),
            fc.constantFrom('data', 'id', 'type', 'attributes', 'errors', 'meta'),
            fc.string({ maxLength: 8 }),
          ),
          tie('value'),
        ),
        { maxLength: 4 },
      )
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    array: fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
  }),
).value

/** An answer of the right shape with polluting keys beside and inside its resources. */
function evilEnvelope(id: Op, evil: string): string {
  const resource = `{"__proto__":${evil},"id":"t1","type":"target","attributes":{"name":"n","address":"a","constructor":${evil},"__proto__":${evil},"extra":${evil}},"prototype":${evil}}`
  const data = id === 'targets.list' ? `[${resource}]` : resource
  return `{"__proto__":${evil},"data":${data},"constructor":{"prototype":${evil}}}`
}

/** An error body in each shape deployments use, with polluting keys in its maps and items. */
function evilError(evil: string): string {
  const item = `{"__proto__":${evil},"detail":"is taken","source":{"pointer":"/data/attributes/__proto__","__proto__":${evil}}}`
  return `{"__proto__":${evil},"errors":[${item}],"fields":{"__proto__":${evil},"constructor":["x"],"prototype":${evil}},"message":${evil}}`
}

// ---------------------------------------------------------------- properties

describe('answers that are not JSON', () => {
  it('refuses malformed JSON with BAD_RESPONSE, without a retry', async () => {
    const malformed = fc
      .oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('{', '[1,]', "{'a':1}"))
      .filter((text) => {
        try {
          JSON.parse(text)
          return false
        } catch {
          return true
        }
      })
    await fc.assert(
      fc.asyncProperty(op, malformed, async (id, text) => {
        server.seen.length = 0
        answer(200, text)
        const error = await failed(id)
        expect(error.code).toBe('BAD_RESPONSE')
        expectAttempts(id, false)
      }),
      { numRuns: 60 },
    )
  })

  it('refuses a valid answer truncated at any byte with BAD_RESPONSE', async () => {
    await fc.assert(
      fc.asyncProperty(
        opAndValidBody,
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (x, at) => {
          server.seen.length = 0
          const bytes = Buffer.from(JSON.stringify(x.body))
          answer(200, bytes.subarray(0, Math.min(bytes.length - 1, Math.floor(at * bytes.length))))
          const error = await failed(x.id)
          expect(error.code).toBe('BAD_RESPONSE')
          expectAttempts(x.id, false)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('refuses a web page with 200 (whatever its content type) and never shows its text', async () => {
    const page = fc
      .tuple(
        fc.constantFrom('<!doctype html>', '<html>', '  <HTML lang="en">', '<head>', '<body>'),
        fc.string({ maxLength: 200 }),
      )
      .map(([start, rest]) => `${start}<title>Proxy login ${CANARY}</title>${rest}`)
    const type = fc.constantFrom('text/html', 'application/json', 'text/plain', null)
    await fc.assert(
      fc.asyncProperty(op, page, type, async (id, body, contentType) => {
        server.seen.length = 0
        answer(200, body, contentType)
        const error = await failed(id)
        expect(error.code).toBe('BAD_RESPONSE')
        expect(error.message).not.toContain('Proxy login')
        expectAttempts(id, false)
      }),
      { numRuns: 40 },
    )
  })

  it('refuses an empty 200 and a 204 where data is expected', async () => {
    await fc.assert(
      fc.asyncProperty(
        op,
        fc.constantFrom(200, 201, 204),
        fc.constantFrom('', ' ', '\n'),
        async (id, status, body) => {
          server.seen.length = 0
          answer(status, status === 204 ? '' : body)
          expect((await failed(id)).code).toBe('BAD_RESPONSE')
          expectAttempts(id, false)
        },
      ),
      { numRuns: 20 },
    )
  })
})

describe('JSON answers', () => {
  it('accepts a valid answer only when its content type says JSON', async () => {
    const json = ['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json']
    const type = fc.constantFrom(
      ...json,
      'Application/JSON ; charset=UTF-8',
      'text/plain',
      'text/json',
      'application/octet-stream',
      'application/xml',
      'application/jsonp',
      'application/json-seq',
      'text/html',
      'text/html; charset=utf-8',
      null,
    )
    await fc.assert(
      fc.asyncProperty(opAndValidBody, type, async (x, contentType) => {
        server.seen.length = 0
        answer(200, JSON.stringify(x.body), contentType)
        const outcome = await run(x.id)
        const labelledJson =
          contentType !== null && /^application\/(vnd\.api\+)?json\s*(;|$)/i.test(contentType)
        if (!labelledJson) {
          expect(outcome.ok ? 'ok' : outcome.error.code).toBe('BAD_RESPONSE')
        } else {
          // Resolves only with what the catalog's schema reads from the body.
          const op = findOperation(x.id)!
          expect(outcome).toEqual({ ok: true, data: op.response.parse(x.body) })
        }
        expectAttempts(x.id, false)
      }),
      { numRuns: 60 },
    )
  })

  it('refuses an answer whose id breaks the id rule (a space, a slash, a bidi control…)', async () => {
    const badId = fc
      .string({ minLength: 1, maxLength: 12, unit: 'binary' })
      .filter((v) => !/^[A-Za-z0-9_-]{1,64}$/.test(v))
    await fc.assert(
      fc.asyncProperty(opAndValidBody, badId, async (x, id) => {
        const body = structuredClone(x.body) as { data: { id: string } | { id: string }[] }
        const rows = Array.isArray(body.data) ? body.data : [body.data]
        if (rows.length === 0) return
        rows[rows.length - 1].id = id
        answer(200, JSON.stringify(body))
        expect(await failed(x.id)).toMatchObject({
          code: 'BAD_RESPONSE',
          message: expect.stringMatching(/holds an id ScanDesk does not accept/),
        })
      }),
      { numRuns: 40 },
    )
  })

  it('resolves only with JSON of the expected shape: anything else is BAD_RESPONSE', async () => {
    await fc.assert(
      fc.asyncProperty(op, fc.jsonValue(), async (id, value) => {
        server.seen.length = 0
        answer(200, JSON.stringify(value))
        const outcome = await run(id)
        const checked = findOperation(id)!.response.safeParse(value)
        if (checked.success) expect(outcome).toEqual({ ok: true, data: checked.data })
        else expect(outcome.ok ? 'ok' : outcome.error.code).toBe('BAD_RESPONSE')
      }),
      { numRuns: 60 },
    )
  })

  it('never lets __proto__, constructor or prototype keys pollute a prototype, at any depth or status', async () => {
    const status = fc.constantFrom(200, 201, 400, 404, 409, 422, 500)
    const body = fc.tuple(op, evilJson, fc.constantFrom('raw', 'answer', 'error'))
    await fc.assert(
      fc.asyncProperty(body, status, async ([id, evil, shape], code) => {
        server.seen.length = 0
        answer(
          code,
          shape === 'answer' ? evilEnvelope(id, evil) : shape === 'error' ? evilError(evil) : evil,
        )
        const outcome = await run(id)
        expectNoPollution()
        if (outcome.ok) {
          expect(code).toBeLessThan(300)
          // The schema's objects drop own `__proto__` keys; what they keep is plain data.
          expectPlainTree(outcome.data)
        } else if (code < 300) {
          expect(outcome.error.code).toBe('BAD_RESPONSE')
        }
      }),
      { numRuns: 80 },
    )
    expectNoPollution()
  })

  it('keeps field errors named like what every object has (constructor, __proto__, toString) as fields', async () => {
    const names = fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'name')
    const shape = fc.constantFrom('fields', 'errors', 'pointer')
    await fc.assert(
      fc.asyncProperty(op, names, shape, async (id, name, how) => {
        server.seen.length = 0
        const body =
          how === 'pointer'
            ? { errors: [{ source: { pointer: `/data/attributes/${name}` }, detail: 'is wrong' }] }
            : { [how]: JSON.parse(`{${JSON.stringify(name)}: ["is wrong"]}`) as unknown }
        answer(422, JSON.stringify(body))
        const outcome = await run(id)
        expectNoPollution()
        expect(outcome.ok ? null : outcome.error.code).toBe('VALIDATION')
        const fields = (outcome as { error: { fieldErrors?: Record<string, string[]> } }).error
          .fieldErrors
        expect(Object.hasOwn(fields ?? {}, name)).toBe(true)
        expect(fields?.[name]).toEqual(['is wrong'])
      }),
      { numRuns: 30 },
    )
  })

  it('reads numbers beyond 2^53: an integer field refuses them, a free field keeps what JSON.parse reads', async () => {
    const big = fc.oneof(
      fc.bigInt({ min: 2n ** 53n + 1n, max: 10n ** 40n }).map(String),
      fc.bigInt({ min: -(10n ** 40n), max: -(2n ** 53n) - 1n }).map(String),
      fc.integer({ min: 300, max: 400 }).map((e) => `1e${e}`),
      fc.integer({ min: 300, max: 400 }).map((e) => `-9.5e${e}`),
      fc.constant(`1${'0'.repeat(400)}`),
    )
    await fc.assert(
      fc.asyncProperty(op, big, fc.boolean(), async (id, token, inIntField) => {
        server.seen.length = 0
        const field = inIntField ? 'hosts_count' : 'risk_score'
        const resource = `{"id":"t1","type":"target","attributes":{"name":"n","address":"a","${field}":${token}}}`
        answer(200, id === 'targets.list' ? `{"data":[${resource}]}` : `{"data":${resource}}`)
        const outcome = await run(id)
        if (inIntField) {
          // hosts_count is z.number().int(): unsafe integers and ±Infinity (1e400) fail it.
          expect(outcome.ok ? 'ok' : outcome.error.code).toBe('BAD_RESPONSE')
        } else {
          // A field the schema does not name passes through as JSON.parse reads the token: the
          // nearest double (precision beyond 2^53 is lost, 1e400 becomes Infinity), unchanged.
          expect(outcome.ok).toBe(true)
          const data = (outcome as { data: { data: unknown } }).data.data
          const read = (Array.isArray(data) ? data[0] : data) as {
            attributes: Record<string, unknown>
          }
          expect(read.attributes.risk_score).toBe(JSON.parse(token))
        }
      }),
      { numRuns: 60 },
    )
  })

  it('refuses non-finite and malformed number tokens with BAD_RESPONSE', async () => {
    const token = fc.constantFrom(
      'NaN',
      'Infinity',
      '-Infinity',
      '+1',
      '01',
      '0x10',
      '1.',
      '.5',
      '1e',
    )
    await fc.assert(
      fc.asyncProperty(op, token, async (id, t) => {
        server.seen.length = 0
        const resource = `{"id":"t1","type":"target","attributes":{"name":"n","address":"a","hosts_count":${t}}}`
        answer(200, id === 'targets.list' ? `{"data":[${resource}]}` : `{"data":${resource}}`)
        expect((await failed(id)).code).toBe('BAD_RESPONSE')
      }),
      { numRuns: 20 },
    )
  })

  it('refuses deeply nested arrays without overflowing the stack', async () => {
    const depth = fc.integer({ min: 100, max: 60_000 })
    await fc.assert(
      fc.asyncProperty(op, depth, fc.boolean(), async (id, n, inside) => {
        server.seen.length = 0
        const nested = `${'['.repeat(n)}${']'.repeat(n)}`
        answer(200, inside ? `{"data":${nested}}` : nested)
        expect((await failed(id)).code).toBe('BAD_RESPONSE')
      }),
      { numRuns: 20 },
    )
  })
})
