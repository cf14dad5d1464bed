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

  it('shows a scan’s name without markup, control or bidi characters', () => {
    const { shown } = installNotification('granted')
    const name = 'Perimeter <b>\u202Efdp.exe</b> &\u0007 co'
    expect(notify({ title: `Scan “${name}” finished`, body: name, tag: 'scn-2' })).toBe(true)
    // browser mode: the browser escapes the body for the OS itself
    expect(shown[0]).toEqual({
      title: 'Scan “Perimeter <b>fdp.exe</b> & co” finished',
      options: { body: 'Perimeter <b>fdp.exe</b> & co', tag: 'scn-2' },
    })
  })

  it('escapes the body in Electron on Linux, whose notifications read it as markup', () => {
    const { shown } = installNotification('granted')
    vi.stubGlobal('scandesk', {})
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) ScanDesk Electron',
    )
    try {
      notify({
        title: 'Scan finished',
        body: '<a href="https://x.example">Acme</a> & co',
        tag: 't',
      })
      expect(shown[0].options?.body).toBe(
        '&lt;a href="https://x.example"&gt;Acme&lt;/a&gt; &amp; co',
      )
    } finally {
      vi.restoreAllMocks()
    }
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
