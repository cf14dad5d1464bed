import { flushPromises } from '@vue/test-utils'
import { beforeEach, describe, expect, it } from 'vitest'
import { useFakeApp } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { mountWithApp } from '@/test/mountApp'
import NotificationsSection from './NotificationsSection.vue'
import { byTestId, callsOf, formSettled, serveUserApi, type ApiPayload } from './userTestKit'

const prefs: Record<string, boolean> = {}

const fake = useFakeApp()
beforeEach(() => {
  Object.assign(prefs, {
    scan_completed: true,
    scan_failed: true,
    report_ready: false,
    new_critical_vulnerability: true,
    exception_expiring: false,
    saq_approved: false,
    weekly_summary: false,
  })
})

const switchOf = (key: string) =>
  byTestId(`user-notify-${key}`)[0].closest('.el-switch') ?? byTestId(`user-notify-${key}`)[0]
const isOn = (key: string) => switchOf(key).classList.contains('is-checked')

describe('notification preferences', () => {
  it('shows one switch per preference and saves a change of one', async () => {
    serveUserApi(fake, {
      'user.notification_preferences': () => ({
        data: { id: 'usr-001', type: 'notification_preferences', attributes: { ...prefs } },
      }),
      'user.update_notification_preferences': (p: ApiPayload) => {
        Object.assign(prefs, p.input.body)
        return {
          data: { id: 'usr-001', type: 'notification_preferences', attributes: { ...prefs } },
        }
      },
    })
    const wrapper = mountWithApp(NotificationsSection)
    await flushPromises()
    expect(wrapper.findAllComponents({ name: 'ElSwitch' })).toHaveLength(7)
    expect(isOn('weekly_summary')).toBe(false)
    ;(switchOf('weekly_summary') as HTMLElement).click()
    await formSettled()
    expect(callsOf(fake, 'user.update_notification_preferences')[0].input.body).toEqual({
      weekly_summary: true,
    })
    expect(isOn('weekly_summary')).toBe(true)
  })

  it('keeps the switch as it was and says why when saving fails', async () => {
    serveUserApi(fake, {
      'user.notification_preferences': () => ({
        data: { id: 'usr-001', type: 'notification_preferences', attributes: { ...prefs } },
      }),
      'user.update_notification_preferences': () =>
        new Fail({ code: 'OFFLINE', message: 'The service cannot be reached.' }),
    })
    mountWithApp(NotificationsSection)
    await flushPromises()
    ;(switchOf('scan_failed') as HTMLElement).click()
    await formSettled()
    expect(isOn('scan_failed')).toBe(true)
    expect(byTestId('user-notifications-error')[0].textContent).toContain(
      'Scan failed was not changed: The service cannot be reached.',
    )
  })
})
