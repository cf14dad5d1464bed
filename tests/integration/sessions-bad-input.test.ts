// Bad input to the sign-in channels: malformed base URLs, 10,000-character fields, wrong and
// reused one-time codes, forged links. Each gets a clear message and changes nothing: no
// account row, no vault entry, and (where main can tell before asking) no request to the service.
import { describe, expect, it } from 'vitest'
import type { AccountList } from '@contract/channels'
import type { SignInOutcome } from '@contract/sessions'
import { otpFor } from '../support/otp'
import { analystAccount, bytesOf } from './core-helpers'
import { useSandboxAndCore } from './fixture'
import { challengeOf } from './sessions-helpers'

const s = useSandboxAndCore()

/** Nothing was stored: no account, no secret in the vault. */
async function expectNothingStored(): Promise<void> {
  const list = await s.t.ok<AccountList>('accounts.list')
  expect(list.accounts).toEqual([])
  expect(s.t.vault?.size ?? 0).toBe(0)
}

const LONG = 'x'.repeat(10_000)

describe('adding an account with bad input', () => {
  it.each([
    [
      'an ftp:// address',
      { baseUrl: 'ftp://scanner.example.com' },
      'baseUrl',
      /https:\/\/ or http:\/\//,
    ],
    [
      'credentials in the address',
      { baseUrl: 'https://u:p@scanner.example.com' },
      'baseUrl',
      /user name or password/,
    ],
    [
      'plain http to another host',
      { baseUrl: 'http://scanner.example.com' },
      'baseUrl',
      /plain http/,
    ],
    ['a 10,000-character label', { label: LONG }, 'label', /longer than 80 characters/],
    ['a 10,000-character user name', { username: LONG }, 'username', /too long/],
    ['a 10,000-character API key', { apiKey: LONG }, 'apiKey', /too long/],
    ['a 10,000-character password', { password: LONG }, 'password', /too long/],
    [
      'a 10,000-character address',
      { baseUrl: `https://${LONG}.example.com` },
      'baseUrl',
      /too long/,
    ],
  ])(
    'refuses %s with a message on that field and stores nothing',
    async (_name, over, field, message) => {
      const before = s.sandbox.requests.length
      const error = await s.t.err('accounts.add', analystAccount(s.sandbox, over))
      expect(error.code).toBe('VALIDATION')
      expect(error.fieldErrors?.[field]?.join(' ')).toMatch(message)
      expect(s.sandbox.requests.length).toBe(before)
      await expectNothingStored()
    },
  )

  it('accepts plain http to another host only with the explicit opt-in (then fails to connect)', async () => {
    const error = await s.t.err(
      'accounts.add',
      analystAccount(s.sandbox, { baseUrl: 'http://scanner.invalid', allowInsecureHttp: true }),
    )
    expect(error.code).not.toBe('VALIDATION')
    await expectNothingStored()
  })
})

describe('second-factor codes', () => {
  async function challenge() {
    const outcome = await s.t.ok<SignInOutcome>(
      'accounts.add',
      analystAccount(s.sandbox, { username: 'admin@sandbox.test', label: 'Admin' }),
    )
    return challengeOf(outcome)
  }

  it('refuses malformed codes before asking the service', async () => {
    const c = await challenge()
    for (const code of ['12345', '1234567', 'abcdef', LONG, '12 34 56']) {
      const error = await s.t.err('accounts.secondFactor', {
        challengeId: c.challengeId,
        method: 'app',
        code,
      })
      expect(error.code).toBe('VALIDATION')
    }
    await expectNothingStored()
  })

  it('refuses a wrong code and a reused code, and stores nothing until a fresh one works', async () => {
    const c = await challenge()
    const code = otpFor(s.sandbox.logged, 'admin@sandbox.test')
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0')
    const refused = await s.t.err('accounts.secondFactor', {
      challengeId: c.challengeId,
      method: 'app',
      code: wrong,
    })
    expect(refused.code).toBe('UNAUTHORIZED')
    expect(refused.message).toMatch(/not correct/)
    await expectNothingStored()
    const done = await s.t.ok<SignInOutcome>('accounts.secondFactor', {
      challengeId: c.challengeId,
      method: 'app',
      code,
    })
    expect(done.status).toBe('signedIn')
    // The same code again, on a new challenge, is refused by the service as used.
    await s.t.ok('accounts.signOut', {
      accountId: done.status === 'signedIn' ? done.account.id : '',
    })
    const account = done.status === 'signedIn' ? done.account : null
    const again = challengeOf(
      await s.t.ok<SignInOutcome>('accounts.signIn', {
        accountId: account!.id,
        password: 'sandbox-password',
      }),
    )
    const reused = await s.t.err('accounts.secondFactor', {
      challengeId: again.challengeId,
      method: 'app',
      code,
    })
    expect(reused.code).toBe('UNAUTHORIZED')
    const list = await s.t.ok<AccountList>('accounts.list')
    expect(list.accounts[0].signedIn).toBe(false)
  })

  it('refuses an unknown challenge id without touching the service', async () => {
    const before = s.sandbox.requests.length
    const error = await s.t.err('accounts.secondFactor', {
      challengeId: 'A'.repeat(24),
      method: 'app',
      code: '123456',
    })
    expect(error.code).toBe('CHALLENGE_EXPIRED')
    expect(s.sandbox.requests.length).toBe(before)
  })
})

describe('forged and oversized links', () => {
  it.each([
    ['a 10,000-character link', `scandesk://sso?host=127.0.0.1&token=${LONG}`],
    ['an https link', 'https://scanner.example.com/sso?token=abcdefgh12'],
    ['a javascript: link', 'javascript:alert(1)'],
    ['an unknown kind', 'scandesk://admin?host=127.0.0.1&token=abcdefgh12'],
    ['a token with odd characters', 'scandesk://sso?host=127.0.0.1&token=%3Cscript%3E12345'],
  ])('refuses %s and keeps nothing', async (_name, link) => {
    const before = s.sandbox.requests.length
    const error = await s.t.err('links.open', { link })
    expect(['VALIDATION']).toContain(error.code)
    expect(error.message.length).toBeGreaterThan(10)
    expect(s.sandbox.requests.length).toBe(before)
    expect(bytesOf(s.t.dataDir).includes(Buffer.from('abcdefgh12'))).toBe(false)
  })
})
