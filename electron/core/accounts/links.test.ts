import { describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { accountsForHost, hostMatches, LINK_TTL_MS, LINK_USED, LinkStore } from './links'

const accounts = [
  { id: 'acct-0001', baseUrl: 'https://scanner.example.com' },
  { id: 'acct-0002', baseUrl: 'https://scanner.example.com/eu' },
  { id: 'acct-0003', baseUrl: 'http://127.0.0.1:4010' },
]

function link(kind: string, host: string, token = 'tok-0123456789') {
  return `scandesk://${kind}?host=${encodeURIComponent(host)}&token=${token}`
}

function errorOf(fn: () => unknown) {
  try {
    fn()
  } catch (err) {
    if (err instanceof AppFailure) return err.error
    throw err
  }
  throw new Error('did not fail')
}

describe('matching a link to accounts', () => {
  it('matches host and port, with or without the default port spelled out', () => {
    expect(hostMatches('https://scanner.example.com', 'scanner.example.com')).toBe(true)
    expect(hostMatches('https://scanner.example.com', 'scanner.example.com:443')).toBe(true)
    expect(hostMatches('https://scanner.example.com', 'scanner.example.com:8443')).toBe(false)
    expect(hostMatches('http://127.0.0.1:4010', '127.0.0.1:4010')).toBe(true)
    expect(hostMatches('http://127.0.0.1:4010', '127.0.0.1')).toBe(false)
    expect(hostMatches('https://evil-scanner.example.com', 'scanner.example.com')).toBe(false)
  })

  it('lists every account at that host', () => {
    expect(accountsForHost(accounts, 'scanner.example.com')).toEqual(['acct-0001', 'acct-0002'])
    expect(accountsForHost(accounts, 'other.example.com')).toEqual([])
  })
})

describe('opening a link', () => {
  it('keeps the token in main and hands out an opaque id', () => {
    const store = new LinkStore()
    const view = store.open(link('reset', 'scanner.example.com'), accounts)
    expect(view).toMatchObject({
      kind: 'reset',
      host: 'scanner.example.com',
      accountIds: ['acct-0001', 'acct-0002'],
      needsPassword: true,
    })
    expect(view.linkId).toMatch(/^[A-Za-z0-9_-]{16,64}$/)
    expect(JSON.stringify(view)).not.toContain('tok-0123456789')
    expect(store.peek(view.linkId).token).toBe('tok-0123456789')
  })

  it('refuses a foreign host with the reason and keeps nothing', () => {
    const store = new LinkStore()
    const error = errorOf(() => store.open(link('sso', 'elsewhere.example.org'), accounts))
    expect(error).toMatchObject({
      code: 'VALIDATION',
      message: 'No account in ScanDesk uses elsewhere.example.org; add that account first.',
    })
    expect(store.size).toBe(0)
  })

  it.each([
    ['not a link at all', 'This is not a link.'],
    ['https://scanner.example.com/sso?token=abcdefgh', 'Only scandesk:// links'],
    ['scandesk://delete?host=scanner.example.com&token=abcdefgh', 'does not know links'],
    ['scandesk://sso?host=scanner.example.com&token=short', 'token is missing or malformed'],
    ['scandesk://sso?host=scanner.example.com&token=abcdefgh&next=x', 'unexpected parameters'],
  ])('refuses the malformed link %s', (text, reason) => {
    const error = errorOf(() => new LinkStore().open(text, accounts))
    expect(error.code).toBe('VALIDATION')
    expect(error.message).toContain(reason)
    expect(error.fieldErrors?.link?.[0]).toContain(reason)
  })
})

describe('using a link once', () => {
  it('hands the link out once and refuses the same token when it is opened again', () => {
    const store = new LinkStore()
    const text = link('sso', 'scanner.example.com')
    const view = store.open(text, accounts)
    const taken = store.take(view.linkId)
    expect(errorOf(() => store.take(view.linkId)).code).toBe('CHALLENGE_EXPIRED')
    store.markUsed(taken)
    expect(errorOf(() => store.open(text, accounts))).toMatchObject({
      code: 'VALIDATION',
      message: LINK_USED,
    })
  })

  it('can put back a link whose use never reached the service', () => {
    const store = new LinkStore()
    const view = store.open(link('confirm', '127.0.0.1:4010'), accounts)
    store.putBack(store.take(view.linkId))
    expect(store.peek(view.linkId).kind).toBe('confirm')
  })

  it('forgets a link after 15 minutes, and when dismissed', () => {
    let now = 1_000_000
    const store = new LinkStore(() => now)
    const a = store.open(link('sso', 'scanner.example.com', 'tok-aaaaaaaa'), accounts)
    const b = store.open(link('sso', 'scanner.example.com', 'tok-bbbbbbbb'), accounts)
    now += LINK_TTL_MS - 1
    expect(store.peek(a.linkId).kind).toBe('sso')
    expect(store.dismiss(b.linkId)).toBe(true)
    expect(store.dismiss(b.linkId)).toBe(false)
    now += 1
    expect(errorOf(() => store.peek(a.linkId))).toMatchObject({ code: 'CHALLENGE_EXPIRED' })
    expect(store.size).toBe(0)
  })
})
