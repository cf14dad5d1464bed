import { describe, expect, it } from 'vitest'
import { DEFAULT_FEED_ADDRESS, feedAddress, feedAddressProblem } from './feed-address'

describe('a feed’s address', () => {
  it('accepts the public defaults and https mirrors', () => {
    for (const address of Object.values(DEFAULT_FEED_ADDRESS))
      expect(feedAddressProblem(address)).toBeNull()
    expect(feedAddressProblem('https://mirror.internal.example/intel/kev.json?v=1')).toBeNull()
    expect(feedAddress.parse('  https://mirror.example/epss.csv.gz ')).toBe(
      'https://mirror.example/epss.csv.gz',
    )
  })

  it('takes plain http only on this computer', () => {
    for (const local of [
      'http://127.0.0.1:8080/feeds/kev.json',
      'http://localhost/kev.json',
      'http://[::1]:9/epss.csv',
    ])
      expect(feedAddressProblem(local)).toBeNull()
    for (const remote of [
      'http://mirror.example/kev.json',
      'http://10.0.0.5/kev.json',
      'http://127.0.0.2/kev.json',
    ])
      expect(feedAddressProblem(remote)).toMatch(/must start with https:\/\//)
  })

  it('refuses other schemes, credentials, fragments, bare words and overlong text', () => {
    expect(feedAddressProblem('ftp://mirror.example/kev.json')).toMatch(/https:\/\//)
    expect(feedAddressProblem('file:///etc/passwd')).toMatch(/https:\/\//)
    expect(feedAddressProblem('https://me:secret@mirror.example/kev.json')).toMatch(/no user name/)
    expect(feedAddressProblem('https://mirror.example/kev.json#top')).toMatch(/fragment/)
    expect(feedAddressProblem('mirror.example/kev.json')).toMatch(/full address/)
    expect(feedAddressProblem(`https://mirror.example/${'a'.repeat(2048)}`)).toMatch(/at most/)
    expect(feedAddress.safeParse('').success).toBe(false)
    const refused = feedAddress.safeParse('http://mirror.example/kev.json')
    expect(refused.success).toBe(false)
    expect(refused.error?.issues[0]?.message).toMatch(/must start with https:\/\//)
  })
})
