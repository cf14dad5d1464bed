import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { askNotifyOnce, canNotify, notify, NOTIFY_ASKED_KEY, resetNotifyForTests } from './notify'

/** A stand-in for window.Notification with a settable permission and answer. */
function installNotification(permission: NotificationPermission, answer = permission) {
  const shown: { title: string; options?: NotificationOptions }[] = []
  const requestPermission = vi.fn(async () => {
    Fake.permission = answer
    return answer
  })
  class Fake {
    static permission: NotificationPermission = permission
    static requestPermission = requestPermission
    onclick: (() => void) | null = null
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, options })
    }
  }
  vi.stubGlobal('Notification', Fake)
  return { shown, requestPermission, Fake }
}

beforeEach(() => {
  localStorage.clear()
  resetNotifyForTests()
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('notifications', () => {
  it('asks for permission once, and never again after the answer', async () => {
    const { requestPermission } = installNotification('default', 'denied')
    expect(await askNotifyOnce()).toBe(false)
    expect(await askNotifyOnce()).toBe(false)
    expect(requestPermission).toHaveBeenCalledTimes(1)
    expect(localStorage.getItem(NOTIFY_ASKED_KEY)).toBe('1')
  })

  it('does not ask again in a later session once asked', async () => {
    localStorage.setItem(NOTIFY_ASKED_KEY, '1')
    const { requestPermission } = installNotification('default')
    expect(await askNotifyOnce()).toBe(false)
    expect(requestPermission).not.toHaveBeenCalled()
  })

  it('shows one notification per tag once allowed', async () => {
    const { shown } = installNotification('default', 'granted')
    expect(await askNotifyOnce()).toBe(true)
    expect(canNotify()).toBe(true)
    expect(notify({ title: 'Scan finished', body: 'Perimeter: completed', tag: 'scn-1' })).toBe(
      true,
    )
    expect(notify({ title: 'Scan finished', tag: 'scn-1' })).toBe(false)
    expect(shown).toEqual([
      { title: 'Scan finished', options: { body: 'Perimeter: completed', tag: 'scn-1' } },
    ])
  })

  it('shows nothing when denied', () => {
    const { shown } = installNotification('denied')
    expect(notify({ title: 'Scan finished', tag: 'scn-1' })).toBe(false)
    expect(shown).toHaveLength(0)
  })

  it('does nothing where the API is missing', async () => {
    vi.stubGlobal('Notification', undefined)
    expect(canNotify()).toBe(false)
    expect(await askNotifyOnce()).toBe(false)
    expect(notify({ title: 'Scan finished', tag: 'scn-1' })).toBe(false)
  })
})
