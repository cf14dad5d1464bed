import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { AccountList } from '@contract/channels'
import { AppFailure, type AppError } from '@contract/errors'
import type { SignInOutcome } from '@contract/sessions'
import { json, startTestServer, type TestServer } from '../http/test-server'
import { AccountsRepo } from '../store/accounts-repo'
import { openDatabase, type Db } from '../store/database'
import { SettingsRepo } from '../store/settings-repo'
import { TombstonesRepo } from '../store/tombstones-repo'
import { AccountService, type AddAccountInput } from './account-service'
import { ClientPool } from './client-pool'
import { KeychainError } from './keychain-vault'
import { MemoryVault } from './memory-vault'
import { ResilientVault } from './resilient-vault'
import { CHALLENGE_OVER, WRONG_API_KEY, WRONG_CODE, WRONG_PASSWORD } from './sign-in'
import type { Vault } from './vault'

const API_KEY = 'key-canary-31d9'
const PASSWORD = 'pw-canary-31d9'
let server: TestServer
let dir: string
let db: Db
let vault: MemoryVault
let service: AccountService
let changes: AccountList[]
let signedOut: string[]
let expired: boolean
let clock: number

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-acc-'))
  db = openDatabase(dir)
  vault = new MemoryVault()
  changes = []
  signedOut = []
  expired = false
  clock = Date.now()
  service = new AccountService({
    accounts: new AccountsRepo(db),
    settings: new SettingsRepo(db),
    vault,
    clients: new ClientPool({ vault, limits: { retries: 0 } }),
    changed: (list) => changes.push(list),
    now: () => new Date(clock),
  })
  server.handle((req, res) => {
    if (req.headers['x-api-key'] !== API_KEY)
      return json(res, 401, { errors: [{ detail: 'A valid x-api-key header is required' }] })
    if (req.url === '/auth/sign_in') {
      const body = JSON.parse(req.body) as { username: string; password: string }
      if (body.username === 'twofa@example.com')
        return json(res, 200, {
          two_factor_required: true,
          otp_token: 'otp-canary-31d9',
          methods: ['app', 'recovery'],
          default_method: 'app',
          expires_at: new Date(Date.now() + 60_000).toISOString(),
        })
      if (body.password !== PASSWORD)
        return json(res, 401, { errors: [{ detail: 'Invalid username or password' }] })
      return json(res, 200, { token: `session-for-${body.username}` })
    }
    if (req.url === '/v2/auth/two_factor_check') {
      const body = JSON.parse(req.body) as { otp_token: string; code: string }
      if (body.otp_token !== 'otp-canary-31d9' || expired)
        return json(res, 401, { errors: [{ detail: 'challenge expired: sign in again' }] })
      if (body.code !== '123456')
        return json(res, 401, { errors: [{ detail: 'invalid or already used code' }] })
      return json(res, 200, { token: 'session-after-2fa' })
    }
    if (req.url === '/v2/auth/sign_out' && req.method === 'DELETE') {
      signedOut.push(String(req.headers.authorization))
      return json(res, 200, { data: { success: true } })
    }
    json(res, 404, {})
  })
})
afterEach(() => {
  db.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

function input(over: Partial<AddAccountInput> = {}): AddAccountInput {
  return {
    label: 'Acme',
    baseUrl: `${server.baseUrl}/`,
    apiKey: API_KEY,
    authMethod: 'password',
    username: 'analyst@example.com',
    password: PASSWORD,
    release: 'latest',
    color: '#3366ff',
    ...over,
  }
}

async function added(p: Promise<SignInOutcome>): Promise<AccountView> {
  const outcome = await p
  if (outcome.status !== 'signedIn') throw new Error(`not signed in: ${outcome.status}`)
  return outcome.account
}

async function refused(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppFailure)
  return (err as AppFailure).error
}

describe('adding an account', () => {
  it('signs in, stores the row without secrets and the secrets in the vault', async () => {
    const view = await added(service.add(input()))
    expect(view).toMatchObject({
      label: 'Acme',
      baseUrl: server.baseUrl,
      signedIn: true,
      authMethod: 'password',
      isDemo: false,
    })
    expect(JSON.stringify(view)).not.toContain('canary')
    expect(await vault.get(view.id, 'api_key')).toBe(API_KEY)
    expect(await vault.get(view.id, 'session_token')).toBe('session-for-analyst@example.com')
    expect(await vault.get(view.id, 'password')).toBeNull()
    expect(changes.at(-1)).toMatchObject({ accounts: [view], activeId: view.id })
  })

  it('stores nothing when the password is wrong', async () => {
    const error = await refused(service.add(input({ password: 'wrong' })))
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', message: WRONG_PASSWORD })
    expect((await service.list()).accounts).toEqual([])
    expect(vault.size).toBe(0)
    expect(changes).toEqual([])
  })

  it('says the API key is wrong when the service refuses it', async () => {
    const error = await refused(service.add(input({ apiKey: 'nope-nope' })))
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', message: WRONG_API_KEY })
    expect(vault.size).toBe(0)
  })

  it('keeps a two-factor sign-in in main and stores the account only after the code', async () => {
    const outcome = await service.add(input({ username: 'twofa@example.com' }))
    if (outcome.status !== 'challenge') throw new Error('expected a challenge')
    const { challenge } = outcome
    expect(challenge).toMatchObject({
      accountId: null,
      label: 'Acme',
      methods: ['app', 'recovery'],
      defaultMethod: 'app',
      phoneHint: null,
    })
    expect(challenge.challengeId).toMatch(/^[A-Za-z0-9_-]{24}$/)
    expect(JSON.stringify(challenge)).not.toMatch(/canary|otp-/)
    expect(vault.size).toBe(0)
    expect((await service.list()).accounts).toEqual([])
    const wrong = await refused(service.secondFactor(challenge.challengeId, 'app', '000000'))
    expect(wrong).toMatchObject({ code: 'UNAUTHORIZED', message: WRONG_CODE })
    expect(vault.size).toBe(0)
    const view = await added(service.secondFactor(challenge.challengeId, 'app', '123456'))
    expect(view).toMatchObject({ username: 'twofa@example.com', signedIn: true })
    expect(await vault.get(view.id, 'session_token')).toBe('session-after-2fa')
    expect(await vault.get(view.id, 'api_key')).toBe(API_KEY)
    const again = await refused(service.secondFactor(challenge.challengeId, 'app', '123456'))
    expect(again).toMatchObject({ code: 'CHALLENGE_EXPIRED', message: CHALLENGE_OVER })
  })

  it('drops a challenge once its time is over, without asking the service', async () => {
    const outcome = await service.add(input({ username: 'twofa@example.com' }))
    if (outcome.status !== 'challenge') throw new Error('expected a challenge')
    clock += 61_000
    const seen = server.seen.length
    const error = await refused(
      service.secondFactor(outcome.challenge.challengeId, 'app', '123456'),
    )
    expect(error.code).toBe('CHALLENGE_EXPIRED')
    expect(server.seen.length).toBe(seen)
    expect(vault.size).toBe(0)
  })

  it('drops a challenge the service says has expired', async () => {
    const outcome = await service.add(input({ username: 'twofa@example.com' }))
    if (outcome.status !== 'challenge') throw new Error('expected a challenge')
    expired = true
    const id = outcome.challenge.challengeId
    expect((await refused(service.secondFactor(id, 'app', '123456'))).code).toBe(
      'CHALLENGE_EXPIRED',
    )
    expired = false
    expect((await refused(service.secondFactor(id, 'app', '123456'))).code).toBe(
      'CHALLENGE_EXPIRED',
    )
    expect(vault.size).toBe(0)
  })

  it('refuses the same user at the same address twice', async () => {
    await added(service.add(input()))
    expect((await refused(service.add(input({ label: 'Again' })))).code).toBe('CONFLICT')
  })
})

describe('signing out and in', () => {
  it('tells the service, forgets the session token and keeps the API key', async () => {
    const view = await added(service.add(input()))
    const out = await service.signOut(view.id)
    expect(out.signedIn).toBe(false)
    expect(signedOut).toEqual(['Bearer session-for-analyst@example.com'])
    expect(await vault.get(view.id, 'session_token')).toBeNull()
    expect(await vault.get(view.id, 'api_key')).toBe(API_KEY)
    const back = await added(service.signIn(view.id, PASSWORD))
    expect(back.signedIn).toBe(true)
  })

  it('signs out locally when the service cannot be reached', async () => {
    const view = await added(service.add(input()))
    db.prepare('UPDATE accounts SET base_url = ?').run('http://127.0.0.1:9')
    const out = await service.signOut(view.id)
    expect(out.signedIn).toBe(false)
  })

  it('keeps the account signed out when signing in again fails', async () => {
    const view = await added(service.add(input()))
    await service.signOut(view.id)
    expect((await refused(service.signIn(view.id, 'wrong'))).message).toBe(WRONG_PASSWORD)
    expect((await service.list()).accounts[0].signedIn).toBe(false)
  })
})

describe('the account list', () => {
  it('counts every reading, so the window can tell an older list from a newer one', async () => {
    const a = await added(service.add(input()))
    const first = service.list()
    await service.setActive(a.id)
    const [before, after] = [await first, await service.list()]
    expect(after.revision).toBeGreaterThan(before.revision ?? Infinity)
  })
})

describe('removing an account', () => {
  it('removes only that account’s row and vault entries and moves the active account', async () => {
    const a = await added(service.add(input()))
    const b = await added(service.add(input({ label: 'Other', username: 'other@example.com' })))
    await service.setActive(a.id)
    await service.remove(a.id)
    const list = await service.list()
    expect(list.accounts.map((x) => x.id)).toEqual([b.id])
    expect(list.activeId).toBe(b.id)
    expect(await vault.get(a.id, 'api_key')).toBeNull()
    expect(await vault.get(b.id, 'api_key')).toBe(API_KEY)
    expect((await refused(service.remove(a.id))).code).toBe('UNKNOWN_ACCOUNT')
  })
})

describe('reconnecting an account to a new address', () => {
  it('changes nothing when the new sign-in fails', async () => {
    const view = await added(service.add(input()))
    const error = await refused(
      service.reconnect(view.id, {
        baseUrl: 'http://127.0.0.1:9',
        apiKey: API_KEY,
        username: view.username,
        password: PASSWORD,
      }),
    )
    expect(error.code).toBe('OFFLINE')
    expect((await service.list()).accounts[0].baseUrl).toBe(server.baseUrl)
  })
})

describe('when the system keychain cannot be reached', () => {
  let keychain: MemoryVault
  let failing: boolean
  let tombstones: TombstonesRepo

  function keychainVault(): Vault {
    const gate = async () => {
      if (failing) throw new KeychainError('the keychain is locked')
    }
    return {
      status: async () => ({ available: !failing, message: failing ? 'locked' : null }),
      get: async (a, k) => (await gate(), keychain.get(a, k)),
      lookup: async (a, k) => (await gate(), keychain.get(a, k)),
      set: async (a, k, v) => (await gate(), keychain.set(a, k, v)),
      persist: async (a, k, v) => (await gate(), keychain.set(a, k, v)),
      delete: async (a, k) => (await gate(), keychain.delete(a, k)),
      deleteAll: (a) => keychain.deleteAll(a),
    }
  }

  /** A service as core builds it: resilient vault, tombstones in SQLite (a "start" of ScanDesk). */
  function start(): { service: AccountService; vault: ResilientVault } {
    const resilientVault = new ResilientVault({
      keychain: async () => keychainVault(),
      tombstones,
      retryDelayMs: 0,
      recheckMs: 0,
    })
    return {
      vault: resilientVault,
      service: new AccountService({
        accounts: new AccountsRepo(db),
        settings: new SettingsRepo(db),
        vault: resilientVault,
        clients: new ClientPool({ vault: resilientVault, limits: { retries: 0 } }),
        changed: () => undefined,
      }),
    }
  }

  beforeEach(() => {
    keychain = new MemoryVault()
    failing = false
    tombstones = new TombstonesRepo(db)
  })

  it('signs out here, says the keychain still holds the session, and deletes it at the next start', async () => {
    const first = start()
    const view = await added(first.service.add(input()))
    failing = true
    const error = await refused(first.service.signOut(view.id))
    expect(error.code).toBe('KEYCHAIN_UNAVAILABLE')
    expect(error.message).toMatch(/^Acme is signed out in ScanDesk, but the system keychain/)
    expect(error.message).toContain('next time it starts')
    expect((await first.service.list()).accounts[0].signedIn).toBe(false)
    expect(await keychain.get(view.id, 'session_token')).toBe('session-for-analyst@example.com')
    expect(tombstones.list().map((t) => t.kind)).toEqual(['session_token'])
    // restart with the keychain back: the account stays signed out and the keychain is clean
    failing = false
    const second = start()
    expect((await second.service.list()).accounts[0].signedIn).toBe(false)
    expect(await keychain.get(view.id, 'session_token')).toBeNull()
    expect(await keychain.get(view.id, 'api_key')).toBe(API_KEY)
    expect(tombstones.list()).toEqual([])
  })

  it('removes the account here and finishes deleting its secrets at the next start', async () => {
    const first = start()
    const view = await added(first.service.add(input()))
    failing = true
    const error = await refused(first.service.remove(view.id))
    expect(error).toMatchObject({ code: 'KEYCHAIN_UNAVAILABLE' })
    expect(error.message).toContain('Acme is removed from ScanDesk')
    expect((await first.service.list()).accounts).toEqual([])
    expect(await keychain.get(view.id, 'api_key')).toBe(API_KEY)
    failing = false
    await start().vault.status()
    expect(keychain.size).toBe(0)
    expect(tombstones.list()).toEqual([])
  })

  it('says when the forgotten password is still in the keychain', async () => {
    const first = start()
    const view = await added(first.service.add(input({ rememberPassword: true })))
    expect(await keychain.get(view.id, 'password')).toBe(PASSWORD)
    failing = true
    const error = await refused(first.service.setRemember(view.id, false))
    expect(error.code).toBe('KEYCHAIN_UNAVAILABLE')
    expect(error.message).toContain('remembered password of Acme')
    expect((await first.service.list()).accounts[0].rememberPassword).toBe(false)
    expect(await first.vault.get(view.id, 'password')).toBeNull()
    failing = false
    await start().vault.status()
    expect(await keychain.get(view.id, 'password')).toBeNull()
  })

  it('refuses to remember a password while secrets are kept in memory only', async () => {
    const first = start()
    const view = await added(first.service.add(input()))
    failing = true
    await first.vault.get(view.id, 'api_key') // the keychain is found failing
    expect(first.vault.inMemoryOnly).toBe(true)
    const error = await refused(first.service.setRemember(view.id, true, PASSWORD))
    expect(error.code).toBe('KEYCHAIN_UNAVAILABLE')
    expect(error.message).toMatch(/cannot remember the password now/)
    expect((await first.service.list()).accounts[0].rememberPassword).toBe(false)
    expect(await first.vault.get(view.id, 'password')).toBeNull()
  })
})
