import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { useTwoAccounts } from '@/test/composables'
import { shown, theTestId } from '@/test/dom'
import { mountWithApp } from '@/test/mountApp'
import KeychainBanner from './KeychainBanner.vue'

let unmount: (() => void) | null = null
const fake = useTwoAccounts()
afterEach(() => {
  unmount?.()
})

const LOCKED = {
  available: false,
  message:
    'The system keychain is not available (the keychain is locked); secrets are kept in memory until ScanDesk quits.',
  advice:
    'Unlock the login keychain in Keychain Access. ScanDesk tries the keychain again every 30 seconds.',
}
const text = (id: string) => theTestId(id).textContent?.replace(/\s+/g, ' ').trim()

async function mountBanner(): Promise<void> {
  const wrapper = mountWithApp(KeychainBanner)
  unmount = () => wrapper.unmount()
  await flushPromises()
}

describe('the keychain warning', () => {
  it('says why and what to do', async () => {
    await mountBanner()
    expect(shown('keychain-banner')).toBe(false)
    fake.emit('keychain.status', LOCKED)
    await flushPromises()
    expect(shown('keychain-banner')).toBe(true)
    expect(text('keychain-banner-reason')).toBe('Why: the keychain is locked.')
    expect(text('keychain-banner-advice')).toBe(`What to do: ${LOCKED.advice}`)
  })

  it('says that what is sealed on this computer is kept as it is while the keychain is away', async () => {
    await mountBanner()
    fake.emit('keychain.status', {
      available: false,
      message: 'The system keychain did not answer within 5 s.',
    })
    await flushPromises()
    expect(text('keychain-banner-reason')).toBe(
      'Why: The system keychain did not answer within 5 s..',
    )
    expect(text('keychain-banner-sealed')).toContain(
      'offline copies, drafts, changes waiting to be sent) stays as it is, and nothing new is added to it',
    )
    expect(text('keychain-banner-sealed')).toContain(
      'What you save meanwhile (saved views, drafts, bulk runs, changes waiting to be sent) is kept in memory until ScanDesk quits.',
    )
  })

  it('can be dismissed for the session, and comes back when the keychain fails anew', async () => {
    await mountBanner()
    fake.emit('keychain.status', LOCKED)
    await flushPromises()
    theTestId('keychain-banner').querySelector<HTMLElement>('.el-alert__close-btn')!.click()
    await flushPromises()
    expect(shown('keychain-banner')).toBe(false)
    // The same failure reported again stays dismissed.
    fake.emit('keychain.status', { ...LOCKED })
    await flushPromises()
    expect(shown('keychain-banner')).toBe(false)
    // It recovered, then failed again: that is news.
    fake.emit('keychain.status', { available: true, message: null })
    fake.emit('keychain.status', LOCKED)
    await flushPromises()
    expect(shown('keychain-banner')).toBe(true)
  })
})
