// Secrets carry a unique marker; after a session of ordinary and failing work, the marker (and
// the session token the service issued) must appear nowhere the renderer, a log or the disk sees.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { SignInOutcome } from '@contract/sessions'
import { otpFor } from '../support/otp'
import { analystAccount, bytesOf, signedIn, startTestCore } from './core-helpers'
import { useSandboxAndCore } from './fixture'
import { challengeOf, until } from './sessions-helpers'

const MARK = `CANARY${randomUUID().replace(/-/g, '')}`
const s = useSandboxAndCore({ sandbox: { apiKey: `key-${MARK}` }, each: 'none' })

describe('secrets stay secret', () => {
  it('never shows the API key, password or session token in results, events, logs or the store', async () => {
    const t = await startTestCore()
    const wrongPassword = `pw-${MARK}`
    // failing and succeeding work of every kind
    await t.call('accounts.add', analystAccount(s.sandbox, { password: wrongPassword }))
    await t.call('accounts.add', analystAccount(s.sandbox, { apiKey: `bad-${MARK}` }))
    await t.call('accounts.add', { ...analystAccount(s.sandbox), apiKey: `${MARK}\u0000` })
    const view = signedIn(await t.ok<SignInOutcome>('accounts.add', analystAccount(s.sandbox)))
    const token = await t.vault!.get(view.id, 'session_token')
    expect(token).toBeTruthy()
    const call = (op: string, input?: unknown) =>
      t.call('api.call', { accountId: view.id, op, input })
    await call('targets.list')
    await call('targets.create', { body: { name: 'Canary host', address: 'canary.example' } })
    await call('targets.show', { path: { id: 'tgt-999' } })
    await call('targets.show', { path: { id: `../${MARK}` } })
    await call('scans.upcoming', { query: { limit: 3 } })
    await t.call('accounts.signIn', { accountId: view.id, password: wrongPassword })
    await t.call('accounts.signOut', { accountId: view.id })
    await t.call('accounts.signIn', { accountId: view.id, password: 'sandbox-password' })
    const token2 = await t.vault!.get(view.id, 'session_token')
    await t.call('accounts.list')
    await t.call('app.info')
    // the session is refused: the call waits for one prompt and resumes after sign-in
    s.sandbox.setFaults({ unauthorizedAfter: 1 })
    await call('targets.list')
    const waiting = call('targets.list')
    await until(() => t.events.some((e) => e.name === 'accounts.reauthRequired'))
    s.sandbox.setFaults({ unauthorizedAfter: 0 })
    await t.call('accounts.signIn', { accountId: view.id, password: wrongPassword })
    await t.call('accounts.signIn', { accountId: view.id, password: 'sandbox-password' })
    expect((await waiting).ok).toBe(true)
    const token3 = await t.vault!.get(view.id, 'session_token')

    // a password with the marker, remembered, used by a silent re-sign-in after expiry
    const newPassword = `pw-${MARK}-new`
    await call('user.change_password', {
      body: { current_password: 'sandbox-password', password: newPassword },
    })
    await t.call('accounts.signIn', { accountId: view.id, password: newPassword, remember: true })
    s.sandbox.advanceClock(9 * 60 * 60_000)
    expect((await call('targets.list')).ok).toBe(true)
    const token4 = await t.vault!.get(view.id, 'session_token')
    await t.call('accounts.setRemember', { accountId: view.id, remember: false })
    await t.call('accounts.setRemember', { accountId: view.id, remember: true })

    // an access token: generated, used, offered again, checked and revoked
    await t.call('accounts.accessToken', { accountId: view.id, action: 'generate' })
    const accessToken = await t.vault!.get(view.id, 'access_token')
    expect(accessToken).toBeTruthy()
    await call('targets.list')
    await t.call('accounts.add', {
      ...analystAccount(s.sandbox),
      authMethod: 'access_token',
      password: undefined,
      accessToken,
    })
    await t.call('accounts.add', {
      ...analystAccount(s.sandbox),
      authMethod: 'access_token',
      password: undefined,
      accessToken: `tok-${MARK}`,
    })
    await t.call('accounts.accessToken', { accountId: view.id, action: 'check' })
    await t.call('accounts.accessToken', { accountId: view.id, action: 'revoke' })
    await call('targets.list')

    // a second factor: wrong code, SMS refused, right code
    const from = s.sandbox.lines.length
    const outcome = await t.ok<SignInOutcome>(
      'accounts.add',
      analystAccount(s.sandbox, { username: 'admin@sandbox.test', label: 'Admin' }),
    )
    const challengeId = challengeOf(outcome).challengeId
    await t.call('accounts.secondFactor', { challengeId, method: 'app', code: '000000' })
    await t.call('accounts.sendSms', { challengeId })
    const second = await t.call<SignInOutcome>('accounts.secondFactor', {
      challengeId,
      method: 'app',
      code: otpFor(s.sandbox.logged, 'admin@sandbox.test', from),
    })
    expect(second.ok && second.data.status).toBe('signedIn')
    await t.call('api.call', { accountId: view.id, op: 'auth.sign_in', input: { body: {} } })

    const secrets = [MARK, token!, token2!, token3!, token4!, accessToken!]
    expect(secrets.every((x) => typeof x === 'string' && x.length > 8)).toBe(true)
    expect(new Set(secrets).size).toBe(secrets.length)
    const seen = [...t.results, ...t.events.map((e) => JSON.stringify(e.payload)), ...t.logs].join(
      '\n',
    )
    expect(t.results.length).toBeGreaterThan(30)
    expect(t.events.some((e) => e.name === 'accounts.reauthRequired')).toBe(true)
    const diskWhileOpen = bytesOf(t.dataDir)
    await t.close()
    const diskAfter = bytesOf(t.dataDir)
    for (const secret of secrets) {
      expect(seen).not.toContain(secret)
      expect(diskWhileOpen.includes(Buffer.from(secret))).toBe(false)
      expect(diskAfter.includes(Buffer.from(secret))).toBe(false)
    }
    // the test would notice: the marker did reach the service
    expect(s.sandbox.requests.length).toBeGreaterThan(5)
  })
})
