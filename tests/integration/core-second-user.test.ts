// A second user of a service already in ScanDesk, its API key reused: main copies the key from the
// first account's keychain entry; the renderer names that account only and never sees the key.
import { describe, expect, it } from 'vitest'
import type { AccountList } from '@contract/channels'
import type { SignInOutcome } from '@contract/sessions'
import { addAnalyst, analystAccount, signedIn, whoAmI } from './core-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore()

/** The manager of the sandbox, added as a second user of `sourceId`'s service. */
const manager = (baseUrl: string, sourceId: string, over: Record<string, unknown> = {}) => {
  const { apiKey: _typed, ...form } = analystAccount({ baseUrl, apiKey: '' })
  return {
    ...form,
    label: 'Sandbox manager',
    username: 'manager@sandbox.test',
    apiKeyFrom: sourceId,
    ...over,
  }
}

describe('adding another user of a service with its stored API key', () => {
  it('signs in as that user with the key copied in main, and answers no key', async () => {
    const analyst = await addAnalyst(s.t, s.sandbox)
    const outcome = await s.t.ok<SignInOutcome>(
      'accounts.add',
      manager(s.sandbox.baseUrl, analyst.id),
    )
    const added = signedIn(outcome)
    expect(added).toMatchObject({
      label: 'Sandbox manager',
      baseUrl: s.sandbox.baseUrl,
      username: 'manager@sandbox.test',
      signedIn: true,
    })
    expect(await whoAmI(s.t, added.id)).toBe('manager@sandbox.test')
    expect(await s.t.vault!.get(added.id, 'api_key')).toBe(s.sandbox.apiKey)
    // The key was never in an answer to the renderer (nor in an event).
    expect(s.t.results.some((r) => r.includes(s.sandbox.apiKey))).toBe(false)
    expect(JSON.stringify(s.t.events)).not.toContain(s.sandbox.apiKey)
    const list = await s.t.ok<AccountList>('accounts.list')
    expect(list.accounts.map((a) => a.username).sort()).toEqual([
      'analyst@sandbox.test',
      'manager@sandbox.test',
    ])
  })

  it('sends the reused key only to its own service', async () => {
    const analyst = await addAnalyst(s.t, s.sandbox)
    const before = s.sandbox.requests.length
    const elsewhere = 'http://127.0.0.1:9/'
    const error = await s.t.err('accounts.add', manager(elsewhere, analyst.id))
    expect(error.code).toBe('VALIDATION')
    expect(error.fieldErrors?.baseUrl?.[0]).toBe(
      `must be ${s.sandbox.baseUrl} to reuse the API key of Sandbox analyst`,
    )
    expect(s.sandbox.requests.length).toBe(before)
    expect((await s.t.ok<AccountList>('accounts.list')).accounts).toHaveLength(1)
  })

  it('refuses a payload that names a key and an account to reuse, or an unknown account', async () => {
    const analyst = await addAnalyst(s.t, s.sandbox)
    const both = await s.t.err(
      'accounts.add',
      manager(s.sandbox.baseUrl, analyst.id, { apiKey: 'typed-key' }),
    )
    expect(both.code).toBe('VALIDATION')
    expect(both.fieldErrors?.apiKey).toEqual(['comes from the account whose API key is reused'])
    const gone = await s.t.err(
      'accounts.add',
      manager(s.sandbox.baseUrl, '00000000-0000-4000-8000-000000000000'),
    )
    expect(gone.code).toBe('UNKNOWN_ACCOUNT')
  })

  it('says the key cannot be read when the keychain no longer has it', async () => {
    const analyst = await addAnalyst(s.t, s.sandbox)
    await s.t.vault!.delete(analyst.id, 'api_key')
    const error = await s.t.err('accounts.add', manager(s.sandbox.baseUrl, analyst.id))
    expect(error.code).toBe('KEYCHAIN_UNAVAILABLE')
    expect(error.message).toBe(
      'The API key of Sandbox analyst cannot be read from the system keychain now; type the key instead.',
    )
  })
})
