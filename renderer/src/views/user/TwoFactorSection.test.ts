import { flushPromises } from '@vue/test-utils'
import QRCode from 'qrcode'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { useFakeApp } from '@/test/fakeApp'
import { mountUserSection } from '@/test/userSection'
import TwoFactorSection from './TwoFactorSection.vue'
import {
  byTestId,
  callsOf,
  click,
  errorUnder,
  invalid,
  serveUserApi,
  submitWith,
  typeInto,
  userResource,
  type OpHandler,
} from './userTestKit'

vi.mock('qrcode', () => ({ default: { toCanvas: vi.fn(() => Promise.resolve()) } }))

const URI = 'otpauth://totp/ScanDesk:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=ScanDesk'
let enabled = false

const fake = useFakeApp()
beforeEach(() => {
  enabled = false
  vi.mocked(QRCode.toCanvas).mockClear()
})

async function mountSection(handlers: Record<string, OpHandler> = {}) {
  serveUserApi(fake, {
    'user.show': () => ({
      data: userResource({
        two_factor_enabled: enabled,
        two_factor_method: enabled ? 'app' : null,
      }),
    }),
    'user.two_factor_enable': () => ({
      data: { method: 'app', secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: URI },
    }),
    'user.two_factor_verify': () => {
      enabled = true
      return {
        data: {
          two_factor_enabled: true,
          two_factor_method: 'app',
          recovery_codes: ['aaaa-1111', 'bbbb-2222'],
        },
      }
    },
    ...handlers,
  })
  return mountUserSection(TwoFactorSection)
}

describe('turning on two-factor authentication with an app', () => {
  it('shows the provisioning URI as a QR code and the secret as text', async () => {
    await mountSection()
    expect(byTestId('user-2fa-status')[0].textContent).toContain('Off')
    await submitWith('user-2fa-enable')

    expect(callsOf(fake, 'user.two_factor_enable')[0].input.body).toEqual({ method: 'app' })
    const canvas = byTestId('user-2fa-qr')[0]
    expect(canvas.tagName).toBe('CANVAS')
    expect(QRCode.toCanvas).toHaveBeenCalledWith(canvas, URI, expect.any(Object))
    expect(byTestId('user-2fa-secret')[0].textContent).toBe('JBSWY3DPEHPK3PXP')
  })

  it('verifies with the typed code, then shows the first recovery codes and the new state', async () => {
    await mountSection()
    await submitWith('user-2fa-enable')
    await typeInto('user-2fa-code', '123456')
    await submitWith('user-2fa-verify')

    expect(callsOf(fake, 'user.two_factor_verify').map((c) => c.input.body)).toEqual([
      { code: '123456' },
    ])
    expect(byTestId('user-recovery-codes')[0].textContent).toContain('aaaa-1111')
    expect(byTestId('user-2fa-status')[0].textContent).toContain('On')
  })

  it('refuses a code that is not 6 digits without asking the service', async () => {
    await mountSection()
    await submitWith('user-2fa-enable')
    await typeInto('user-2fa-code', '12ab')
    await submitWith('user-2fa-verify')
    expect(callsOf(fake, 'user.two_factor_verify')).toHaveLength(0)
    expect(await errorUnder('user-2fa-code')).toBe('Code must be 6 digits')
  })

  it('shows a wrong code under the code field and stays on the step', async () => {
    await mountSection({ 'user.two_factor_verify': () => invalid({ code: ['is invalid'] }) })
    await submitWith('user-2fa-enable')
    await typeInto('user-2fa-code', '654321')
    await submitWith('user-2fa-verify')
    expect(await errorUnder('user-2fa-code')).toBe('Code is invalid')
    expect(byTestId('user-2fa-secret')).toHaveLength(1)
  })
})

describe('turning on two-factor authentication by SMS', () => {
  it('looks the phone up and sends the code to it', async () => {
    await mountSection({
      'user.phone_lookup': () => ({
        data: {
          phone_number: '+442079460958',
          valid: true,
          country_code: '44',
          country: 'GB',
          can_receive_sms: true,
        },
      }),
      'user.two_factor_enable': () => ({
        data: { method: 'sms', phone_number: '+44 •••• ••0958' },
      }),
    })
    byTestId('user-2fa-method-sms')[0].querySelector('input')!.click()
    await flushPromises()
    await typeInto('user-2fa-phone', '+44 20 7946 0958')
    await submitWith('user-2fa-phone-lookup')
    expect(callsOf(fake, 'user.phone_lookup')[0].input.body).toEqual({ phone: '+44 20 7946 0958' })
    expect(byTestId('user-2fa-phone-result')[0].textContent).toContain('can receive SMS codes')

    await submitWith('user-2fa-enable')
    expect(callsOf(fake, 'user.two_factor_enable')[0].input.body).toEqual({
      method: 'sms',
      phone: '+44 20 7946 0958',
    })
    expect(byTestId('user-2fa-sms-sent')[0].textContent).toContain('+44 •••• ••0958')
  })
})

describe('turning two-factor authentication off', () => {
  it('asks for the password and shows a wrong one under its field', async () => {
    enabled = true
    let answer: unknown = invalid({ password: ['is incorrect'] })
    await mountSection({ 'user.two_factor_disable': () => answer })
    await click('user-2fa-disable-open')
    await typeInto('user-2fa-disable-password', 'wrong')
    await submitWith('user-2fa-disable')
    expect(callsOf(fake, 'user.two_factor_disable')[0].input.body).toEqual({ password: 'wrong' })
    expect(await errorUnder('user-2fa-disable-password')).toBe('Password is incorrect')

    answer = { data: userResource({ two_factor_enabled: false }) }
    await typeInto('user-2fa-disable-password', 'sandbox-password')
    await submitWith('user-2fa-disable')
    expect(byTestId('user-2fa-status')[0].textContent).toContain('Off')
  })

  it('changes the default method through its own operation', async () => {
    enabled = true
    await mountSection({
      'user.default_two_factor_method': () => invalid({ method: ['is not set up'] }),
    })
    const sms = byTestId('user-2fa-default-method')[0].querySelectorAll('input')[1]
    sms.click()
    await flushPromises()
    expect(callsOf(fake, 'user.default_two_factor_method')[0].input.body).toEqual({
      method: 'sms',
    })
    await new Promise((r) => setTimeout(r, 130))
    expect(document.body.textContent).toContain('Text message (SMS) is not set up')
  })
})
