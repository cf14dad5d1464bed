import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { useCurrentUserStore } from '@/stores/currentUser'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import { mountUserSection } from '@/test/userSection'
import PasswordSection from './PasswordSection.vue'
import ProfileSection from './ProfileSection.vue'
import {
  byTestId,
  callsOf,
  errorUnder,
  inputOf,
  invalid,
  serveUserApi,
  submitWith,
  typeInto,
  userResource,
  type ApiPayload,
} from './userTestKit'

const fake = useFakeApp()

const mountProfile = () => mountUserSection(ProfileSection)

describe('saving the profile', () => {
  it('puts the service’s 422 messages under their fields and keeps what was typed', async () => {
    serveUserApi(fake, {
      'user.update': () =>
        invalid({ first_name: ['is already taken'], time_zone: ['is not a known time zone'] }),
    })
    await mountProfile()
    expect(inputOf('user-profile-first-name').value).toBe('Ada')
    await typeInto('user-profile-first-name', 'Augusta')
    await submitWith('user-profile-save')

    expect(callsOf(fake, 'user.update')[0].input.body).toMatchObject({ first_name: 'Augusta' })
    expect(await errorUnder('user-profile-first-name')).toBe('First name is already taken')
    expect(
      document.querySelector('[data-field="time_zone"] .el-form-item__error')?.textContent,
    ).toContain('Time zone is not a known time zone')
    expect(byTestId('user-profile-error')).toHaveLength(0)
    expect(inputOf('user-profile-first-name').value).toBe('Augusta')
  })

  it('refuses an empty first name before asking the service', async () => {
    serveUserApi(fake)
    await mountProfile()
    await typeInto('user-profile-first-name', '   ')
    await submitWith('user-profile-save')
    expect(callsOf(fake, 'user.update')).toHaveLength(0)
    expect(await errorUnder('user-profile-first-name')).toBe('First name is required')
  })

  it('sends the edited names, locale and time zone and shows the saved answer', async () => {
    serveUserApi(fake, {
      'user.update': (p: ApiPayload) => ({
        data: userResource(p.input.body as Record<string, string>),
      }),
    })
    await mountProfile()
    await typeInto('user-profile-last-name', 'King')
    await submitWith('user-profile-save')
    expect(callsOf(fake, 'user.update')[0].input.body).toEqual({
      first_name: 'Ada',
      last_name: 'King',
      locale: 'en',
      time_zone: 'Europe/London',
    })
    expect(useCurrentUserStore().user?.attributes.last_name).toBe('King')
    expect(await errorUnder('user-profile-last-name')).toBe('')
  })

  it('waits for the service while “Work offline” is on: Save is disabled, nothing is sent', async () => {
    serveUserApi(fake)
    await mountProfile()
    await typeInto('user-profile-first-name', 'Augusta')
    fake.emit('connectivity.mode', { workOffline: true, network: true })
    await flushPromises()
    const save = document.querySelector<HTMLButtonElement>('[data-testid="user-profile-save"]')!
    expect(save.disabled).toBe(true)
    expect(save.closest('[data-reason]')?.getAttribute('data-reason')).toContain(
      '“Work offline” is on',
    )
    save.closest('form')!.requestSubmit()
    await flushPromises()
    expect(callsOf(fake, 'user.update')).toHaveLength(0)
    expect(inputOf('user-profile-first-name').value).toBe('Augusta')
  })

  it('shows a failure without field errors as an alert', async () => {
    serveUserApi(fake, {
      'user.update': () => invalid({}, 'You are offline; nothing was sent.'),
    })
    await mountProfile()
    await submitWith('user-profile-save')
    expect(byTestId('user-profile-error')[0].textContent).toContain('You are offline')
  })
})

describe('changing the password', () => {
  it('checks the rules and the confirmation before sending', async () => {
    serveUserApi(fake)
    mountWithApp(PasswordSection)
    await typeInto('user-password-current', 'old-password')
    await typeInto('user-password-new', 'short')
    await typeInto('user-password-confirm', 'different')
    await submitWith('user-password-submit')
    expect(callsOf(fake, 'user.change_password')).toHaveLength(0)
    expect(await errorUnder('user-password-new')).toBe(
      'New password must be at least 10 characters',
    )
    expect(await errorUnder('user-password-confirm')).toBe(
      'Confirmation does not match the new password',
    )
  })

  it('shows a wrong current password under its field and keeps the typed values', async () => {
    serveUserApi(fake, {
      'user.change_password': () => invalid({ current_password: ['is incorrect'] }),
    })
    mountWithApp(PasswordSection)
    await typeInto('user-password-current', 'wrong-password')
    await typeInto('user-password-new', 'a-new-password-1')
    await typeInto('user-password-confirm', 'a-new-password-1')
    await submitWith('user-password-submit')
    expect(callsOf(fake, 'user.change_password')[0].input.body).toEqual({
      current_password: 'wrong-password',
      password: 'a-new-password-1',
    })
    expect(await errorUnder('user-password-current')).toBe('Current password is incorrect')
    expect(inputOf('user-password-new').value).toBe('a-new-password-1')
  })

  it('clears every field after a successful change', async () => {
    serveUserApi(fake, { 'user.change_password': () => ({ data: { success: true } }) })
    mountWithApp(PasswordSection)
    await typeInto('user-password-current', 'sandbox-password')
    await typeInto('user-password-new', 'a-new-password-1')
    await typeInto('user-password-confirm', 'a-new-password-1')
    await submitWith('user-password-submit')
    expect(byTestId('user-password-done')).toHaveLength(1)
    for (const id of ['user-password-current', 'user-password-new', 'user-password-confirm'])
      expect(inputOf(id).value).toBe('')
  })
})
