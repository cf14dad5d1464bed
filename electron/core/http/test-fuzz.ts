// The harness of the fuzz tests (fuzz.test.ts, fuzz-limits.test.ts): one loopback server that
// answers a catalog read (targets.list, GET, idempotent) and a catalog write (targets.create,
// POST, not idempotent), a client with small limits, and a call that checks every failure is an
// AppFailure with a safe message that never shows a secret. For tests only.
import fc from 'fast-check'
import { afterAll, beforeAll, beforeEach, expect } from 'vitest'
import { AppFailure, ERROR_CODES, type AppError } from '@contract/errors'
import { createAccountClient, type AccountClient } from './client'
import type { ClientLimits } from './options'
import { startTestServer, type TestServer } from './test-server'

/** A secret's mark: no failure may show it. */
export const CANARY = 'canary-5d1e77b0-secret'
/** Retries of a read. */
export const RETRIES = 2
/** Small limits, so huge and slow answers are quick to test. */
const LIMITS: Partial<ClientLimits> = {
  deadlineMs: 2_000,
  idleMs: 400,
  maxContentLength: 128 * 1024,
  retries: RETRIES,
  backoffBaseMs: 1,
  backoffMaxMs: 5,
  retryBudgetPerMinute: 1_000_000,
}

/** The loopback server of the file's tests (set by `useFuzzServer`). */
export let server: TestServer
/** A client of `server` with the small limits (set by `useFuzzServer`). */
export let client: AccountClient

/** Starts the server and client before the file's tests, forgets requests before each. */
export function useFuzzServer(): void {
  beforeAll(async () => {
    server = await startTestServer()
    client = newClient()
  })
  afterAll(async () => {
    client.close()
    await server.close()
  })
  beforeEach(() => {
    server.seen.length = 0
  })
}

/** A client of `server` with the small limits, overridden by `limits`. */
export function newClient(limits: Partial<ClientLimits> = {}): AccountClient {
  return createAccountClient({
    baseUrl: server.baseUrl,
    apiKey: `key-${CANARY}`,
    getAuth: () => ({ scheme: 'Bearer', token: `tok-${CANARY}` }),
    release: 'latest',
    limits: { ...LIMITS, ...limits },
  })
}

/** The catalog read and write the tests call. */
export type Op = 'targets.list' | 'targets.create'
export const OPS: readonly Op[] = ['targets.list', 'targets.create']
const INPUT: Record<Op, object> = {
  'targets.list': { query: { page: 1 } },
  'targets.create': { body: { name: 'Web', address: '10.0.0.1' } },
}
/** Either operation (fast-check). */
export const op = fc.constantFrom(...OPS)

/** How a call ended: the checked answer, or the AppError it failed with (anything else fails). */
export type Outcome = { ok: true; data: unknown } | { ok: false; error: AppError }

/** Runs one call; checks that a failure is an AppFailure with a safe, actionable message. */
export async function run(id: Op, c: AccountClient = client): Promise<Outcome> {
  try {
    return { ok: true, data: await c.call(id, INPUT[id]) }
  } catch (err) {
    if (!(err instanceof AppFailure))
      throw new Error(`${id} rejected with a ${String((err as Error)?.name)}, not an AppFailure`, {
        cause: err,
      })
    const error = err.error
    expect(ERROR_CODES).toContain(error.code)
    expect(error.message.trim().length).toBeGreaterThan(0)
    expect(error.message).not.toMatch(/\n\s+at |\.(ts|js):\d+/)
    expect(error.message).not.toContain('<')
    expect(JSON.stringify(error)).not.toContain(CANARY)
    expect(err.message).not.toContain(CANARY)
    return { ok: false, error }
  }
}

/** The code of a failed call (the call must fail). */
export async function failed(id: Op, c?: AccountClient): Promise<AppError> {
  const outcome = await run(id, c)
  if (outcome.ok) throw new Error(`${id} resolved: ${JSON.stringify(outcome.data).slice(0, 200)}`)
  return outcome.error
}

/** Answers every request with `status`, `type` and `body` (text or bytes). */
export function answer(
  status: number,
  body: string | Buffer,
  type: string | null = 'application/json',
) {
  server.handle((_req, res) =>
    res.writeHead(status, type === null ? {} : { 'content-type': type }).end(body),
  )
}

/** Requests the server saw for one call: exactly 1 for a write, 1 + retries for a retried read. */
export function expectAttempts(id: Op, retried: boolean): void {
  expect(server.seen.length).toBe(id === 'targets.list' && retried ? 1 + RETRIES : 1)
}
