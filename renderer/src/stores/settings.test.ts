import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { nextTick } from 'vue'
import { Fail, installFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { useSettingsStore } from './settings'

let fake: FakeScandesk

beforeEach(() => {
  fake = installFakeScandesk()
  setActivePinia(createPinia())
  document.documentElement.classList.remove('dark')
})
afterEach(() => {
  delete window.scandesk
})

const isDark = () => document.documentElement.classList.contains('dark')

describe('the theme', () => {
  it('applies the saved dark theme as html.dark', async () => {
    fake.handle('settings.get', () => ({ theme: 'dark' }))
    const store = useSettingsStore()
    await store.load()
    await nextTick()
    expect(isDark()).toBe(true)
  })

  it('saves a change and switches at once', async () => {
    fake.handle('settings.get', () => ({ theme: 'dark' }))
    fake.handle('settings.set', (p: { theme: string }) => ({ theme: p.theme }))
    const store = useSettingsStore()
    await store.load()
    await store.setTheme('light')
    await nextTick()
    expect(isDark()).toBe(false)
    expect(fake.calls.at(-1)).toEqual({ channel: 'settings.set', payload: { theme: 'light' } })
  })

  it('goes back to the previous theme when saving fails', async () => {
    fake.handle('settings.get', () => ({ theme: 'dark' }))
    fake.handle('settings.set', () => new Fail({ code: 'INTERNAL', message: 'disk full' }))
    const store = useSettingsStore()
    await store.load()
    await store.setTheme('light')
    await nextTick()
    expect(store.theme).toBe('dark')
    expect(isDark()).toBe(true)
    expect(store.error?.message).toBe('disk full')
  })
})

describe('the download settings', () => {
  it('loads and saves the mismatch action and notifications', async () => {
    let saved = { theme: 'light', mismatchAction: 'quarantine', notifyOnFinish: true }
    fake.handle('settings.get', () => saved)
    fake.handle('settings.set', (p: Partial<typeof saved>) => (saved = { ...saved, ...p }))
    const store = useSettingsStore()
    await store.load()
    expect(store.mismatchAction).toBe('quarantine')
    expect(await store.setDownloads({ mismatchAction: 'delete', notifyOnFinish: false })).toBe(true)
    expect(fake.calls.at(-1)).toEqual({
      channel: 'settings.set',
      payload: { mismatchAction: 'delete', notifyOnFinish: false },
    })
    expect(store.mismatchAction).toBe('delete')
    expect(store.notifyOnFinish).toBe(false)
  })

  it('loads and saves the largest download, in bytes as main keeps it', async () => {
    let saved = { theme: 'light', maxDownloadBytes: 4 * 1024 ** 3 }
    fake.handle('settings.get', () => saved)
    fake.handle('settings.set', (p: Partial<typeof saved>) => (saved = { ...saved, ...p }))
    const store = useSettingsStore()
    await store.load()
    expect(store.maxDownloadBytes).toBe(4 * 1024 ** 3)
    expect(await store.setDownloads({ maxDownloadBytes: 2 * 1024 ** 3 })).toBe(true)
    expect(fake.calls.at(-1)?.payload).toEqual({ maxDownloadBytes: 2 * 1024 ** 3 })
    expect(store.maxDownloadBytes).toBe(2 * 1024 ** 3)
  })

  it('keeps the previous values and the error when saving fails', async () => {
    fake.handle('settings.get', () => ({
      theme: 'light',
      mismatchAction: 'quarantine',
      notifyOnFinish: true,
    }))
    fake.handle('settings.set', () => new Fail({ code: 'VALIDATION', message: 'Not allowed.' }))
    const store = useSettingsStore()
    await store.load()
    expect(await store.setDownloads({ mismatchAction: 'delete' })).toBe(false)
    expect(store.mismatchAction).toBe('quarantine')
    expect(store.error?.message).toBe('Not allowed.')
  })
})

describe('the download folder', () => {
  it('reads and sets an account’s folder with the payloads main expects', async () => {
    fake.handle('files.getFolder', () => ({ folder: null }))
    fake.handle('files.setFolder', (p: { folder?: string }) => ({ folder: p.folder ?? '/picked' }))
    const store = useSettingsStore()
    const current = await store.downloadFolder('acct-aaaa')
    expect(current).toEqual({ ok: true, data: { folder: null } })
    expect(fake.calls.at(-1)).toEqual({
      channel: 'files.getFolder',
      payload: { accountId: 'acct-aaaa' },
    })
    const picked = await store.setDownloadFolder({ accountId: 'acct-aaaa' })
    expect(picked.ok && picked.data.folder).toBe('/picked')
    expect(fake.calls.at(-1)?.payload).toEqual({ accountId: 'acct-aaaa' })
    await store.setDownloadFolder({ accountId: 'acct-aaaa', folder: '/home/me/Reports' })
    expect(fake.calls.at(-1)?.payload).toEqual({
      accountId: 'acct-aaaa',
      folder: '/home/me/Reports',
    })
  })
})
