// The offline copy is the signed-in identity's (issue 23, weakness 8), through the core against
// the real sandbox over HTTP with a relay that can cut the line: an administrator acting as a
// user neither reads the administrator's copy nor writes into it, and gets it back after stopping.
import fs from 'node:fs'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { ApiCallOutput } from '@contract/channels'
import type { SignInOutcome } from '@contract/sessions'
import { MemoryVault } from '../../electron/core/accounts/memory-vault'
import { startRelay, type Relay } from '../support/relay'
import {
  analystAccount,
  startRecordedSandbox,
  startTestCore,
  type RecordedSandbox,
  type TestCore,
} from './core-helpers'

const OTP = '424242'
/** Seeded users (sandbox/domains/identity/seed.ts): the analyst is usr-002. */
const ANALYST_ID = 'usr-002'

let sandbox: RecordedSandbox
let relay: Relay
let t: TestCore
let admin: AccountView

const emailOf = (out: ApiCallOutput) =>
  (out.data as { data: { attributes: { email: string } } }).data.attributes.email
const me = () => t.ok<ApiCallOutput>('api.call', { accountId: admin.id, op: 'user.show' })
const meErr = () => t.err('api.call', { accountId: admin.id, op: 'user.show' })

beforeAll(async () => {
  sandbox = await startRecordedSandbox({ fixedOtp: OTP })
  relay = await startRelay(sandbox.port)
})
afterAll(async () => {
  await relay.close()
  await sandbox.close()
})
beforeEach(async () => {
  sandbox.reset()
  relay.restore()
  t = await startTestCore({
    vault: new MemoryVault(),
    probeBackoff: { baseMs: 50, maxMs: 200 },
    httpLimits: { retries: 1, backoffBaseMs: 10, backoffMaxMs: 20, deadlineMs: 2_000 },
  })
  const first = await t.ok<SignInOutcome>(
    'accounts.add',
    analystAccount(
      { baseUrl: relay.url, apiKey: sandbox.apiKey },
      { label: 'Acme admin', username: 'admin@sandbox.test' },
    ),
  )
  const done =
    first.status === 'signedIn'
      ? first
      : await t.ok<SignInOutcome>('accounts.secondFactor', {
          challengeId: first.challenge.challengeId,
          method: 'app',
          code: OTP,
        })
  if (done.status !== 'signedIn') throw new Error('the administrator did not sign in')
  admin = done.account
})
afterEach(async () => {
  await t.close()
  fs.rmSync(t.dataDir, { recursive: true, force: true })
})

describe('the offline copy while acting as a user', () => {
  it('is the user’s own: the administrator’s answers are neither served nor overwritten', async () => {
    expect(emailOf(await me())).toBe('admin@sandbox.test')
    await t.ok('accounts.impersonate', { accountId: admin.id, userId: ANALYST_ID })

    // Offline before the user's own screen was ever opened: nothing, not the administrator's.
    relay.cut()
    expect((await meErr()).code).toBe('OFFLINE')
    relay.restore()
    expect(emailOf(await me())).toBe('analyst@sandbox.test')
    relay.cut()
    const acting = await me()
    expect(acting.fromCache).toBe(true)
    expect(emailOf(acting)).toBe('analyst@sandbox.test')

    // Back to the administrator: their own copy, untouched by what the user was shown.
    relay.restore()
    await t.ok('accounts.stopImpersonation', { accountId: admin.id })
    relay.cut()
    const own = await me()
    expect(own.fromCache).toBe(true)
    expect(emailOf(own)).toBe('admin@sandbox.test')
  })
})
