import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAccountsStore } from '@/stores/accounts'
import { Fail, installFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { account, challengeExpired } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import SecondFactorStep from './SecondFactorStep.vue'
import { click, inputOf, shown, theTestId, typeInto } from '@/test/dom'
import { challengeView } from './testing'

let fake: FakeScandesk

beforeEach(() => {
  fake = installFakeScandesk()
  fake.handle('accounts.cancelChallenge', () => ({ cancelled: true }))
  setActivePinia(createPinia())
  useAccountsStore()
})
afterEach(() => {
  vi.useRealTimers()
  delete window.scandesk
  document.body.innerHTML = ''
})

async function mountStep(extra: Parameters<typeof challengeView>[0] = {}) {
  const wrapper = mountWithApp(SecondFactorStep, { props: { challenge: challengeView(extra) } })
  await flushPromises()
  return wrapper
}

const signedIn = () => ({
  status: 'signedIn',
  account: account('acct-aaaa', { label: 'Production' }),
})
const codes = () => fake.calls.filter((c) => c.channel === 'accounts.secondFactor')

describe('the second-factor step', () => {
  it('offers the default method first and a numeric one-time-code field', async () => {
    await mountStep({ methods: ['app', 'sms', 'recovery'], defaultMethod: 'sms' })
    const tabs = [...document.querySelectorAll('[data-testid^="second-factor-tab-"]')].map((t) =>
      t.getAttribute('data-testid'),
    )
    expect(tabs).toEqual([
      'second-factor-tab-sms',
      'second-factor-tab-app',
      'second-factor-tab-recovery',
    ])
    expect(shown('sms-send')).toBe(true)
    expect(inputOf('second-factor-code').getAttribute('autocomplete')).toBe('one-time-code')
    expect(inputOf('second-factor-code').getAttribute('inputmode')).toBe('numeric')
  })

  it('refuses a code that is not 6 digits without asking main', async () => {
    await mountStep()
    await typeInto('second-factor-code', '12ab')
    await click('second-factor-submit')
    expect(theTestId('second-factor-error').textContent).toMatch(/6 digits/)
    expect(codes()).toHaveLength(0)
  })

  it('says a wrong code is wrong, clears it, keeps the step and lets them retry', async () => {
    let attempts = 0
    fake.handle('accounts.secondFactor', () =>
      ++attempts === 1
        ? new Fail({
            code: 'UNAUTHORIZED',
            message: 'That code is not correct or was already used. Try again.',
          })
        : signedIn(),
    )
    const wrapper = await mountStep()
    await typeInto('second-factor-code', '111111')
    await click('second-factor-submit')
    expect(theTestId('second-factor-error').textContent).toContain('not correct')
    expect(inputOf('second-factor-code').value).toBe('')
    expect(shown('second-factor-step')).toBe(true)
    expect(wrapper.emitted('signedIn')).toBeUndefined()

    await typeInto('second-factor-code', '222222')
    await click('second-factor-submit')
    expect(codes().map((c) => c.payload)).toEqual([
      { challengeId: 'chal-0000000000000001', method: 'app', code: '111111' },
      { challengeId: 'chal-0000000000000001', method: 'app', code: '222222' },
    ])
    expect(wrapper.emitted('signedIn')?.[0]?.[0]).toMatchObject({ id: 'acct-aaaa' })
  })

  it('reports an expired challenge to its dialog', async () => {
    fake.handle('accounts.secondFactor', challengeExpired)
    const wrapper = await mountStep()
    await typeInto('second-factor-code', '123456')
    await click('second-factor-submit')
    expect(wrapper.emitted('expired')).toEqual([['The sign-in took too long; sign in again.']])
  })

  it('sends a recovery code with the recovery method', async () => {
    fake.handle('accounts.secondFactor', signedIn)
    await mountStep()
    await click('second-factor-tab-recovery')
    expect(inputOf('second-factor-code').getAttribute('autocomplete')).toBe('off')
    await typeInto('second-factor-code', 'abcd-efgh-1234')
    await click('second-factor-submit')
    expect(codes()[0].payload).toMatchObject({ method: 'recovery', code: 'abcd-efgh-1234' })
  })

  it('cancels the challenge in main', async () => {
    const wrapper = await mountStep()
    await click('second-factor-cancel')
    expect(fake.calls.find((c) => c.channel === 'accounts.cancelChallenge')?.payload).toEqual({
      challengeId: 'chal-0000000000000001',
    })
    expect(wrapper.emitted('cancelled')).toHaveLength(1)
  })

  it('cancels an unfinished challenge when it goes away', async () => {
    const wrapper = await mountStep()
    wrapper.unmount()
    await flushPromises()
    expect(fake.calls.filter((c) => c.channel === 'accounts.cancelChallenge')).toHaveLength(1)
  })
})

describe('SMS codes', () => {
  it('shows the masked phone and counts down until a new code may be sent', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'))
    let sent = 0
    fake.handle('accounts.sendSms', () => {
      sent++
      return challengeView({
        phoneHint: '+44 •••• ••8750',
        smsResendAt: new Date(Date.now() + 30_000).toISOString(),
      })
    })
    await mountStep({ defaultMethod: 'sms' })
    await click('sms-send')
    expect(theTestId('sms-phone').textContent).toContain('+44 •••• ••8750')
    expect(theTestId('sms-countdown').textContent).toContain('30 s')
    expect(theTestId<HTMLButtonElement>('sms-resend').disabled).toBe(true)

    vi.advanceTimersByTime(12_000)
    await flushPromises()
    expect(theTestId('sms-countdown').textContent).toContain('18 s')
    await click('sms-resend')
    expect(sent).toBe(1) // still cooling down

    vi.advanceTimersByTime(18_000)
    await flushPromises()
    expect(shown('sms-countdown')).toBe(false)
    expect(theTestId<HTMLButtonElement>('sms-resend').disabled).toBe(false)
    await click('sms-resend')
    expect(sent).toBe(2)
  })

  it('says when a refused (rate-limited) send may be tried again', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'))
    fake.handle(
      'accounts.sendSms',
      () =>
        new Fail({
          code: 'RATE_LIMITED',
          message: 'Too many codes were asked for.',
          retryAfterMs: 90_000,
        }),
    )
    await mountStep({ defaultMethod: 'sms' })
    await click('sms-send')
    expect(theTestId('sms-note').textContent).toContain('Too many codes')
    expect(theTestId('sms-countdown').textContent).toContain('1:30')
  })
})
