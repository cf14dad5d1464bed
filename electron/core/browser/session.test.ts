import { describe, expect, it } from 'vitest'
import { LaunchTokens, sessionCookie, sessionCookieName, Sessions } from './session'

describe('launch tokens', () => {
  it('redeem once and only before they expire, by the clock at the time of use', async () => {
    let now = 1_000
    const tokens = new LaunchTokens(120_000, () => now)
    const a = tokens.issue()
    const b = tokens.issue()
    expect(a.expiresAt).toBe(121_000)
    expect(tokens.redeem(a.token)).toBe(true)
    expect(tokens.redeem(a.token)).toBe(false)
    expect(await a.settled).toBe('exchanged')
    now = 121_000
    expect(tokens.redeem(b.token)).toBe(false)
    expect(await b.settled).toBe('expired')
  })

  it('refuse empty, missing and unknown values', () => {
    const tokens = new LaunchTokens()
    tokens.issue()
    expect(tokens.redeem('')).toBe(false)
    expect(tokens.redeem(null)).toBe(false)
    expect(tokens.redeem(undefined)).toBe(false)
    expect(tokens.redeem('x'.repeat(43))).toBe(false)
    tokens.closeAll()
  })

  it('end as closed when the server closes', async () => {
    const tokens = new LaunchTokens()
    const a = tokens.issue()
    tokens.closeAll()
    expect(await a.settled).toBe('closed')
    expect(tokens.redeem(a.token)).toBe(false)
  })
})

describe('sessions', () => {
  it('know only the values they created, until cleared', () => {
    const sessions = new Sessions()
    const { session: value, key } = sessions.create()
    expect(sessions.has(value)).toBe(true)
    expect(sessions.has(`${value}x`)).toBe(false)
    expect(sessions.has('')).toBe(false)
    expect(sessions.keyFits([value], key)).toBe(true)
    sessions.clear()
    expect(sessions.has(value)).toBe(false)
    expect(sessions.keyFits([value], key)).toBe(false)
  })

  it('pair each session with its own random page key', () => {
    const sessions = new Sessions()
    const a = sessions.create()
    const b = sessions.create()
    for (const v of [a.session, a.key, b.session, b.key]) expect(v).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(new Set([a.session, a.key, b.session, b.key]).size).toBe(4)
    expect(sessions.keyFits([a.session], a.key)).toBe(true)
    expect(sessions.keyFits(['other', b.session], b.key)).toBe(true)
    // a key of another session, the session value itself, nothing, or a key without its session
    expect(sessions.keyFits([a.session], b.key)).toBe(false)
    expect(sessions.keyFits([a.session], a.session)).toBe(false)
    expect(sessions.keyFits([a.session], '')).toBe(false)
    expect(sessions.keyFits([a.session], null)).toBe(false)
    expect(sessions.keyFits([], a.key)).toBe(false)
    expect(sessions.keyFits([''], a.key)).toBe(false)
  })

  it('go in a cookie named for the port and the run', () => {
    expect(sessionCookieName(4321, 'ab12')).toBe('scandesk-4321-ab12')
    expect(sessionCookieName(4321)).toMatch(/^scandesk-4321-[0-9a-f]{16}$/)
    expect(sessionCookie('scandesk-4321-ab12', 'v')).toBe(
      'scandesk-4321-ab12=v; HttpOnly; SameSite=Strict; Path=/',
    )
  })
})
