import { describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { AccountList, ApiCallOutput, AppInfo } from '@contract/channels'
import type { SignInOutcome } from '@contract/sessions'
import { WRONG_API_KEY, WRONG_PASSWORD } from '../../electron/core/accounts/sign-in'
import { addAnalyst, analystAccount } from './core-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore()

describe('adding an account against the sandbox', () => {
  it('signs in and lists upcoming scans, at most the limit, soonest first', async () => {
    const view = await addAnalyst(s.t, s.sandbox)
    expect(view).toMatchObject({ signedIn: true, isDemo: false, secretsInMemoryOnly: false })
    const out = await s.t.ok<ApiCallOutput>('api.call', {
      accountId: view.id,
      op: 'scans.upcoming',
      input: { query: { limit: 5 } },
    })
    const items = (out.data as { data: { attributes: { next_scheduled_at: string } }[] }).data
    expect(items.length).toBeGreaterThan(0)
    expect(items.length).toBeLessThanOrEqual(5)
    const times = items.map((i) => Date.parse(i.attributes.next_scheduled_at))
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(out.fromCache).toBe(false)
    expect(Number.isNaN(Date.parse(out.fetchedAt))).toBe(false)
  })

  it('stores nothing when the password is wrong', async () => {
    const error = await s.t.err('accounts.add', analystAccount(s.sandbox, { password: 'not-it' }))
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', message: WRONG_PASSWORD })
    expect((await s.t.ok<AccountList>('accounts.list')).accounts).toEqual([])
    expect(s.t.vault?.size).toBe(0)
    expect(s.t.events.filter((e) => e.name === 'accounts.changed')).toEqual([])
  })

  it('says so when the API key is wrong', async () => {
    const error = await s.t.err('accounts.add', analystAccount(s.sandbox, { apiKey: 'wrong-key' }))
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', message: WRONG_API_KEY })
    expect(s.t.vault?.size).toBe(0)
  })

  it('answers a challenge for a user with two-factor sign-in and stores nothing yet', async () => {
    const outcome = await s.t.ok<SignInOutcome>(
      'accounts.add',
      analystAccount(s.sandbox, { username: 'admin@sandbox.test' }),
    )
    expect(outcome.status).toBe('challenge')
    expect(s.t.vault?.size).toBe(0)
    expect((await s.t.ok<AccountList>('accounts.list')).accounts).toEqual([])
  })

  it('refuses a form with missing fields before talking to the service', async () => {
    const before = s.sandbox.requests.length
    const error = await s.t.err('accounts.add', { ...analystAccount(s.sandbox), apiKey: '' })
    expect(error.code).toBe('VALIDATION')
    expect(error.fieldErrors?.apiKey).toBeDefined()
    expect(s.sandbox.requests.length).toBe(before)
  })
})

describe('signing out, in and removing', () => {
  it('signs out at the service, then refuses calls until signed in again', async () => {
    const view = await addAnalyst(s.t, s.sandbox)
    const token = await s.t.vault!.get(view.id, 'session_token')
    expect((await s.t.ok<AccountView>('accounts.signOut', { accountId: view.id })).signedIn).toBe(
      false,
    )
    expect(s.sandbox.requests).toContainEqual(
      expect.stringMatching(/^DELETE \/v2\/auth\/sign_out → 200/),
    )
    expect(await s.t.vault!.get(view.id, 'api_key')).toBe(s.sandbox.apiKey)
    const call = { accountId: view.id, op: 'scans.upcoming', input: { query: { limit: 1 } } }
    expect((await s.t.err('api.call', call)).code).toBe('NOT_SIGNED_IN')
    // the old token no longer works at the service either
    const res = await fetch(`${s.sandbox.baseUrl}/v2/scans/upcoming_scans`, {
      headers: { 'x-api-key': s.sandbox.apiKey, authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(401)
    const wrong = await s.t.err('accounts.signIn', { accountId: view.id, password: 'nope' })
    expect(wrong.message).toBe(WRONG_PASSWORD)
    const back = await s.t.ok<SignInOutcome>('accounts.signIn', {
      accountId: view.id,
      password: 'sandbox-password',
    })
    expect(back).toMatchObject({ status: 'signedIn', account: { id: view.id, signedIn: true } })
    await s.t.ok('api.call', call)
  })

  it('removes the row and every vault entry and announces each change', async () => {
    const view = await addAnalyst(s.t, s.sandbox)
    await s.t.ok('accounts.remove', { accountId: view.id })
    expect(await s.t.ok<AccountList>('accounts.list')).toMatchObject({
      accounts: [],
      activeId: null,
    })
    expect(s.t.vault?.size).toBe(0)
    const changes = s.t.events.filter((e) => e.name === 'accounts.changed')
    expect(changes.map((c) => (c.payload as AccountList).accounts.length)).toEqual([1, 0])
  })

  it('keeps accounts and the active one across a restart, secrets aside', async () => {
    const a = await addAnalyst(s.t, s.sandbox)
    const b = await addAnalyst(s.t, s.sandbox, {
      label: 'Second',
      username: 'ANALYST@sandbox.test ',
    })
      .then(() => null)
      .catch(() => null)
    expect(b).toBeNull()
    await s.t.ok('accounts.setActive', { accountId: a.id })
    await s.t.close()
    await s.reopen()
    const list = await s.t.ok<AccountList>('accounts.list')
    expect(list.activeId).toBe(a.id)
    expect(list.accounts[0]).toMatchObject({ id: a.id, signedIn: true })
  })

  it('answers UNKNOWN_ACCOUNT for an id that does not exist', async () => {
    const error = await s.t.err('api.call', { accountId: 'no-such-account', op: 'scans.upcoming' })
    expect(error.code).toBe('UNKNOWN_ACCOUNT')
  })
})

describe('app and settings', () => {
  it('reports mode, version and the keychain, and keeps the theme', async () => {
    const info = await s.t.ok<AppInfo>('app.info')
    expect(info).toEqual({
      mode: 'browser',
      version: '0.0.0-test',
      keychain: { available: true, message: null },
    })
    expect(await s.t.ok('settings.get')).toEqual({
      theme: 'system',
      mismatchAction: 'quarantine',
      notifyOnFinish: true,
      maxDownloadBytes: 4 * 1024 ** 3,
      cacheMaxBytes: 512 * 1024 ** 2,
      mutedNotificationKinds: [],
    })
    expect(await s.t.ok('settings.set', { theme: 'dark' })).toEqual({
      theme: 'dark',
      mismatchAction: 'quarantine',
      notifyOnFinish: true,
      maxDownloadBytes: 4 * 1024 ** 3,
      cacheMaxBytes: 512 * 1024 ** 2,
      mutedNotificationKinds: [],
    })
    expect((await s.t.err('settings.set', { theme: 'pink' })).code).toBe('VALIDATION')
    expect(await s.t.ok('settings.get')).toEqual({
      theme: 'dark',
      mismatchAction: 'quarantine',
      notifyOnFinish: true,
      maxDownloadBytes: 4 * 1024 ** 3,
      cacheMaxBytes: 512 * 1024 ** 2,
      mutedNotificationKinds: [],
    })
  })
})
