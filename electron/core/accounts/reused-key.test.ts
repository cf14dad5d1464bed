import { describe, expect, it } from 'vitest'
import { addAccountInput } from '@contract/accounts'
import type { AppFailure } from '@contract/errors'
import { accountRow } from '../store/test-account'
import { withApiKey, type AddAccountRequest } from './reused-key'

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----'
const source = accountRow({
  id: 'acc-00000001',
  label: 'On-prem',
  baseUrl: 'http://scanner.lan:8443/api',
  caBundle: PEM,
  allowInsecureHttp: true,
})
const keys = new Map([['acc-00000001', 'stored-key']])
const deps = {
  source: (id: string) => {
    if (id !== source.id) throw new Error(`no account ${id}`)
    return source
  },
  vault: { get: async (id: string) => keys.get(id) ?? null },
}

/** The checked payload as main receives it. */
const request = (over: Record<string, unknown>): AddAccountRequest =>
  addAccountInput.parse({
    label: 'Second user',
    baseUrl: 'http://scanner.lan:8443/api/',
    authMethod: 'password',
    username: 'manager@example.com',
    password: 'pw',
    release: 'latest',
    color: '#3366ff',
    ...over,
  })

describe('an API key reused from another account of the same service', () => {
  it('is copied from that account’s keychain entry with its CA bundle and plain-http choice', async () => {
    const input = await withApiKey(request({ apiKeyFrom: source.id }), deps)
    expect(input).toMatchObject({
      apiKey: 'stored-key',
      caBundle: PEM,
      allowInsecureHttp: true,
      username: 'manager@example.com',
    })
    expect(input).not.toHaveProperty('apiKeyFrom')
  })

  it('goes to no other address, however the URL is spelt', async () => {
    const err = await withApiKey(
      request({ apiKeyFrom: source.id, baseUrl: 'http://scanner.lan:8443/other' }),
      deps,
    ).catch((e: AppFailure) => e.error)
    expect(err).toMatchObject({
      code: 'VALIDATION',
      fieldErrors: {
        baseUrl: ['must be http://scanner.lan:8443/api to reuse the API key of On-prem'],
      },
    })
  })

  it('leaves a typed key as typed', async () => {
    const input = await withApiKey(request({ apiKey: 'typed', baseUrl: 'https://x.example' }), deps)
    expect(input).toMatchObject({ apiKey: 'typed', baseUrl: 'https://x.example' })
    expect(input.caBundle).toBeUndefined()
  })
})

describe('the add-account payload', () => {
  it('needs a key or an account to reuse, never both, and no own trust with a reused key', () => {
    const issues = (over: Record<string, unknown>) =>
      addAccountInput
        .safeParse({
          label: 'L',
          baseUrl: 'https://x.example',
          username: 'u',
          password: 'p',
          release: 'latest',
          color: '#3366ff',
          ...over,
        })
        .error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    expect(issues({})).toEqual(['apiKey: is required'])
    expect(issues({ apiKey: 'k', apiKeyFrom: source.id, caBundle: PEM })).toEqual([
      'apiKey: comes from the account whose API key is reused',
      'caBundle: comes from the account whose API key is reused',
    ])
    expect(issues({ apiKeyFrom: source.id, allowInsecureHttp: false })).toBeUndefined()
    expect(issues({ apiKeyFrom: 'not an id!' })).toEqual(['apiKeyFrom: is not an account id'])
  })
})
