import { beforeAll, describe, expect, it } from 'vitest'
import { AppFailure, type AppError } from '@contract/errors'
import { loadCatalog } from '../catalog'
import type { AccountClient } from '../http/client'
import { SessionGate, type GateAccount } from './session-gate'

/** A fake service: one valid token per account; a call with another one answers 401. */
class FakeService {
  valid = new Map<string, string>()
  held = new Map<string, string>()
  sent: string[] = []

  client(accountId: string): AccountClient {
    const send = async (opId: string) => {
      const token = this.held.get(accountId)
      this.sent.push(`${accountId} ${opId} ${token ?? '-'}`)
      await new Promise((r) => setTimeout(r, 5))
      if (opId.startsWith('auth.'))
        throw new AppFailure({ code: 'UNAUTHORIZED', message: 'no', status: 401 })
      if (!token || token !== this.valid.get(accountId))
        throw new AppFailure({ code: 'UNAUTHORIZED', message: 'Sign in again.', status: 401 })
      return { ok: opId, token }
    }
    return {
      baseUrl: 'http://127.0.0.1:9',
      release: 'latest',
      call: (opId) => send(opId),
      read: async (opId) => ({
        notModified: false,
        data: await send(opId),
        warnings: [],
        tolerated: [],
        etag: null,
        lastModified: null,
      }),
      probe: async () => null,
      download: async (opId) => {
        await send(opId)
        return { status: 200, contentLength: 0, contentType: null, bytes: 0 }
      },
      close: () => undefined,
    }
  }
}

const A: GateAccount = { id: 'acc-a', label: 'Acme', authMethod: 'password' }
const B: GateAccount = { id: 'acc-b', label: 'Globex', authMethod: 'password' }

async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppFailure)
  return (err as AppFailure).error
}

function setup(waitMs?: number) {
  const service = new FakeService()
  const gate = new SessionGate(waitMs)
  const prompts: { id: string; waiting: number }[] = []
  let recover: (id: string) => Promise<boolean> = async () => false
  gate.setHooks({
    recover: (id) => recover(id),
    prompt: (id, waiting) => void prompts.push({ id, waiting }),
  })
  for (const acc of [A, B]) {
    service.valid.set(acc.id, `${acc.id}-1`)
    service.held.set(acc.id, `${acc.id}-1`)
  }
  const a = gate.wrap(A, service.client(A.id))
  const b = gate.wrap(B, service.client(B.id))
  return {
    service,
    gate,
    prompts,
    a,
    b,
    onRecover: (f: (id: string) => Promise<boolean>) => (recover = f),
  }
}

const tick = () => new Promise((r) => setTimeout(r, 30))

// The gate looks operations up in the catalog, loaded by the time any call reaches it (api.call
// and the HTTP client load it first); the timings below are the gate's alone.
beforeAll(() => loadCatalog())

describe('a session that ends', () => {
  it('pauses only that account, prompts once, and resumes every waiting call', async () => {
    const s = setup()
    s.service.valid.set(A.id, 'expired-elsewhere')
    const calls = [s.a.call('targets.list'), s.a.call('scans.list'), s.a.call('reports.list')]
    await tick()
    expect(s.gate.isPaused(A.id)).toBe(true)
    expect(s.prompts).toEqual([{ id: A.id, waiting: expect.any(Number) }])
    expect(s.gate.waiting(A.id)).toBe(3)
    // a later call of A waits without being sent; B is not affected
    const sentBefore = s.service.sent.length
    const later = s.a.call('targets.show')
    expect(await s.b.call('targets.list')).toEqual({ ok: 'targets.list', token: 'acc-b-1' })
    await tick()
    expect(s.service.sent.slice(sentBefore)).toEqual(['acc-b targets.list acc-b-1'])
    // a new session resumes all four, each retried once
    s.service.valid.set(A.id, 'acc-a-2')
    s.service.held.set(A.id, 'acc-a-2')
    expect(s.gate.resume(A.id)).toBe(4)
    const answers = await Promise.all([...calls, later])
    expect(answers.map((x) => (x as { token: string }).token)).toEqual(Array(4).fill('acc-a-2'))
    expect(s.gate.isPaused(A.id)).toBe(false)
    expect(s.prompts).toHaveLength(1)
  })

  it('fails the waiting calls with NOT_SIGNED_IN when the prompt is cancelled', async () => {
    const s = setup()
    s.service.valid.set(A.id, 'gone')
    const calls = [s.a.call('targets.list'), s.a.download('reports.download', {}, { write() {} })]
    await tick()
    expect(s.gate.cancel(A.id, 'Signed out: sign in to Acme again.')).toBe(2)
    for (const call of calls)
      expect(await failure(call)).toEqual({
        code: 'NOT_SIGNED_IN',
        message: 'Signed out: sign in to Acme again.',
      })
    expect(s.gate.isPaused(A.id)).toBe(false)
  })

  it('stops waiting after the bound, and when the caller cancels', async () => {
    const s = setup(60)
    s.service.valid.set(A.id, 'gone')
    const bounded = failure(s.a.call('targets.list'))
    await tick()
    const controller = new AbortController()
    const aborted = failure(s.a.call('scans.list', {}, { signal: controller.signal }))
    controller.abort()
    expect((await aborted).code).toBe('CANCELLED')
    expect(await bounded).toMatchObject({
      code: 'NOT_SIGNED_IN',
      message: expect.stringContaining('Acme'),
    })
  })

  it('resumes without a prompt when the silent re-sign-in works', async () => {
    const s = setup()
    s.onRecover(async (id) => {
      s.service.valid.set(id, 'silent')
      s.service.held.set(id, 'silent')
      s.gate.resume(id)
      return true
    })
    s.service.valid.set(A.id, 'gone')
    expect(await s.a.call('targets.list')).toEqual({ ok: 'targets.list', token: 'silent' })
    expect(s.prompts).toEqual([])
  })

  it('retries at once a call refused with a session replaced while it was on the way', async () => {
    const s = setup()
    s.service.valid.set(A.id, 'acc-a-2')
    const call = s.a.call('targets.list')
    s.service.held.set(A.id, 'acc-a-2')
    s.gate.resume(A.id)
    expect(await call).toEqual({ ok: 'targets.list', token: 'acc-a-2' })
    expect(s.gate.isPaused(A.id)).toBe(false)
    expect(s.prompts).toEqual([])
  })

  it('never pauses an access-token account: its 401 means the token was revoked', async () => {
    const s = setup()
    const basic = s.gate.wrap({ ...A, authMethod: 'access_token' }, s.service.client(A.id))
    s.service.valid.set(A.id, 'revoked')
    const error = await failure(basic.call('targets.list'))
    expect(error).toMatchObject({ code: 'NOT_SIGNED_IN', status: 401 })
    expect(error.message).toMatch(/access token of Acme/)
    expect(s.gate.isPaused(A.id)).toBe(false)
    expect(s.prompts).toEqual([])
  })

  it('lets operations without a user session through untouched', async () => {
    const s = setup()
    expect((await failure(s.a.call('auth.sign_in'))).code).toBe('UNAUTHORIZED')
    expect(s.gate.isPaused(A.id)).toBe(false)
  })
})
