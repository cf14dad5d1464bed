import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import type { Settings } from '@contract/channels'
import { useFakeApp } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { settingsOf } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import DesktopNotificationsSection from './DesktopNotificationsSection.vue'
import { byTestId, click } from './userTestKit'

const fake = useFakeApp()

function serveSettings(muted: Settings['mutedNotificationKinds'], refuse = false) {
  let current = settingsOf({ theme: 'system', mutedNotificationKinds: muted })
  fake.handle('settings.get', () => current)
  fake.handle('settings.set', (patch: Partial<Settings>) => {
    if (refuse) return new Fail({ code: 'INTERNAL', message: 'The settings could not be saved.' })
    current = { ...current, ...patch }
    return current
  })
}

const switchOf = (kind: string) =>
  byTestId(`user-desktop-${kind}`)[0].classList.contains('is-checked')

describe('desktop notifications per kind', () => {
  it('shows muted kinds off and saves a change as the whole muted list', async () => {
    serveSettings(['report_ready'])
    mountWithApp(DesktopNotificationsSection)
    await flushPromises()
    expect(switchOf('report_ready')).toBe(false)
    expect(switchOf('scan_completed')).toBe(true)
    await click('user-desktop-scan_completed')
    await flushPromises()
    await click('user-desktop-report_ready')
    await flushPromises()
    const sets = fake.calls.filter((c) => c.channel === 'settings.set').map((c) => c.payload)
    expect(sets).toEqual([
      { mutedNotificationKinds: ['report_ready', 'scan_completed'] },
      { mutedNotificationKinds: ['scan_completed'] },
    ])
    expect(switchOf('scan_completed')).toBe(false)
    expect(switchOf('report_ready')).toBe(true)
  })

  it('keeps the switch as it was and says why when saving fails', async () => {
    serveSettings([], true)
    mountWithApp(DesktopNotificationsSection)
    await flushPromises()
    await click('user-desktop-system')
    await flushPromises()
    expect(switchOf('system')).toBe(true)
    expect(byTestId('user-desktop-error')[0].textContent).toContain('could not be saved')
  })
})
