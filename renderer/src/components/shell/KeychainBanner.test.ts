import { afterEach, describe, expect, it } from 'vitest'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import { account } from '@/test/fixtures'
import { shown, theTestId } from '@/test/dom'
import { flushPromises } from '@vue/test-utils'
import KeychainBanner from './KeychainBanner.vue'

let wrapper: ReturnType<typeof mountWithApp> | null = null
const fake = useFakeApp({ accounts: () => [account('acct-aaaa')] })
afterEach(() => {
  wrapper?.unmount()
  wrapper = null
})

describe('the keychain banner', () => {
  it('says that what is sealed on this computer is kept as it is while the keychain is away', async () => {
    wrapper = mountWithApp(KeychainBanner)
    await flushPromises()
    expect(shown('keychain-banner')).toBe(false)
    fake.emit('keychain.status', {
      available: false,
      message: 'The system keychain did not answer within 5 s.',
    })
    await flushPromises()
    const text = theTestId('keychain-banner').textContent ?? ''
    expect(text).toContain('secrets are kept in memory until ScanDesk quits')
    expect(text).toContain('did not answer within 5 s')
    expect(text).toContain(
      'offline copies, drafts, changes waiting to be sent) stays as it is, and nothing new is added to it',
    )
  })
})
