// Test-only pieces for the engine's own tests: a small domain (users + targets) and extra
// operations (a file download), so engine tests do not depend on the domains being written.
import { Readable } from 'node:stream'
import { z } from 'zod'
import { operations } from '@contract/catalog/index'
import { byId, okResponse, anyObject } from '@contract/schemas/common'
import { defineOperation, type OperationDef } from '@contract/catalog/types'
import { ALL_RELEASES } from '@contract/releases'
import type { AnyHandler, SandboxDomain } from '../types'
import { startSandboxWith, type RunningSandbox, type SandboxOptions } from '../server'

/** Bytes of the test download (deterministic, 10 KiB). */
export const TEST_FILE = Buffer.from(
  Array.from({ length: 10 * 1024 }, (_, i) => (i * 31 + 7) % 251),
)

/** Extra operations served only in engine tests. */
export const testOperations: OperationDef[] = [
  defineOperation({
    id: 'targets.test_download',
    group: 'targets',
    method: 'GET',
    path: '/v2/targets/{id}/test_download',
    pathParams: byId,
    query: z.strictObject({ stream: z.enum(['1']).optional() }),
    response: anyObject,
    responseKind: 'file',
    releases: ALL_RELEASES,
    summary: 'Test-only download',
    source: 'decided',
    sandbox: { kind: 'custom' },
  }),
  defineOperation({
    id: 'targets.test_access_token',
    group: 'targets',
    method: 'PUT',
    path: '/v2/targets/test_access_token',
    response: anyObject,
    releases: ALL_RELEASES,
    summary: 'Test-only: create an access token for the caller',
    source: 'decided',
    sandbox: { kind: 'custom' },
  }),
  defineOperation({
    id: 'targets.test_revoke_access_token',
    group: 'targets',
    method: 'DELETE',
    path: '/v2/targets/test_access_token',
    response: okResponse,
    releases: ALL_RELEASES,
    summary: 'Test-only: revoke the caller access token',
    source: 'decided',
    sandbox: { kind: 'custom' },
  }),
  defineOperation({
    id: 'targets.test_sign_in',
    group: 'targets',
    method: 'POST',
    path: '/v2/targets/test_sign_in',
    body: z.strictObject({ email: z.string() }),
    response: okResponse,
    releases: ALL_RELEASES,
    auth: 'none',
    summary: 'Test-only unauthenticated operation',
    source: 'decided',
    sandbox: { kind: 'custom' },
  }),
]

/** A test domain: three users, sixty targets of two organizations, and the test handlers. */
export const testDomain: SandboxDomain = {
  name: 'engine-test',
  collections: {
    users: { type: 'user', prefix: 'usr' },
    targets: {
      type: 'target',
      prefix: 'tgt',
      orgScoped: true,
      searchFields: ['name', 'address'],
      defaults: () => ({ tags: [], hosts_count: 1 }),
    },
  },
  seed(ctx) {
    const users = [
      ['admin@sandbox.test', 'administrator', 'org-001'],
      ['analyst@sandbox.test', 'analyst', 'org-001'],
      ['customer@globex.test', 'customer', 'org-002'],
    ]
    for (const [email, role, org] of users) {
      ctx.db.insert('users', {
        id: ctx.db.nextId('usr'),
        type: 'user',
        attributes: { email, role, organization_id: org },
      })
    }
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot']
    for (let i = 1; i <= 60; i++) {
      const org = i <= 40 ? 'org-001' : 'org-002'
      ctx.db.insert('targets', {
        id: ctx.db.nextId('tgt'),
        type: 'target',
        attributes: {
          name: `${ctx.rng.pick(words)} host ${i}`,
          address: `10.0.${Math.floor(i / 10)}.${i}`,
          tags: i % 3 === 0 ? ['pci'] : ['internal'],
          hosts_count: ctx.rng.int(1, 256),
          created_at: ctx.now().toISOString(),
        },
        internal: { organization_id: org },
      })
    }
  },
  handlers: {},
}

/** Handlers of the test operations (outside the catalog, so untyped). */
export const testHandlers: Record<string, AnyHandler> = {
  'targets.test_download': (req, ctx) => {
    ctx.db.require('targets', req.path.id)
    return {
      status: 200,
      file: {
        contentType: 'application/pdf',
        filename: `report "${req.path.id}".pdf`,
        size: TEST_FILE.length,
        body: req.query.stream ? () => Readable.from(chunks(TEST_FILE, 700)) : TEST_FILE,
      },
    }
  },
  'targets.test_access_token': (req, ctx) => ({
    status: 200,
    body: { data: { token: ctx.sessions.createAccessToken(req.caller!.userId) } },
  }),
  'targets.test_revoke_access_token': (req, ctx) => ({
    status: 200,
    body: { data: { success: ctx.sessions.revokeAccessToken(req.caller!.userId) } },
  }),
  'targets.test_sign_in': (req, ctx) => {
    ctx.log(`test sign-in for ${(req.body as { email: string }).email}`)
    return { status: 200, body: { data: { success: true } } }
  },
}

function* chunks(buf: Buffer, size: number): Generator<Buffer> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size)
}

/** Starts a sandbox with the catalog, the test operations and the test domain only. */
export function startTestSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandboxWith(
    { port: 0, testMode: true, log: () => {}, ...options },
    {
      operations: [...operations, ...testOperations],
      domains: [testDomain],
      extraHandlers: testHandlers,
    },
  )
}

/** An answer as tests see it; `json` is loosely typed because expect() checks it. */
export interface TestAnswer {
  status: number
  headers: Headers
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- inspected by expect(), not by types
  json: any
  text: string
}

/** A small fetch helper: api key by default, optional Bearer/Basic, JSON body. */
export async function call(
  sb: RunningSandbox,
  method: string,
  path: string,
  opts: {
    token?: string
    basic?: string
    body?: unknown
    apiKey?: string | null
    raw?: string
    headers?: Record<string, string>
  } = {},
): Promise<TestAnswer> {
  const headers: Record<string, string> = { ...opts.headers }
  if (opts.apiKey !== null) headers['x-api-key'] = opts.apiKey ?? sb.apiKey
  if (opts.token) headers.authorization = `Bearer ${opts.token}`
  if (opts.basic) headers.authorization = `Basic ${opts.basic}`
  let body: string | undefined = opts.raw
  if (opts.body !== undefined) body = JSON.stringify(opts.body)
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${sb.baseUrl}${path}`, { method, headers, body })
  const text = await res.text()
  let json: unknown = undefined
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, json, text }
}
