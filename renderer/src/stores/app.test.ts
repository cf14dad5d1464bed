import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { installFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { useAppStore } from './app'

let fake: FakeScandesk

beforeEach(() => {
  fake = installFakeScandesk()
  setActivePinia(createPinia())
})
afterEach(() => {
  delete window.scandesk
})

describe('what the app knows about itself', () => {
  it('reports an unavailable keychain from app.info and follows later changes', async () => {
    fake.handle('app.info', () => ({
      mode: 'browser',
      version: '0.1.0',
      keychain: { available: false, message: 'locked' },
    }))
    const store = useAppStore()
    await store.load()
    expect(store.info?.mode).toBe('browser')
    expect(store.keychainUnavailable).toBe(true)
    fake.emit('keychain.status', { available: true, message: null })
    expect(store.keychainUnavailable).toBe(false)
  })

  it('keeps connectivity per account', () => {
    const store = useAppStore()
    expect(store.isOnline('acct-aaaa')).toBeNull()
    fake.emit('connectivity', { accountId: 'acct-aaaa', online: false, checkedAt: 'x' })
    fake.emit('connectivity', { accountId: 'acct-bbbb', online: true, checkedAt: 'x' })
    expect(store.isOnline('acct-aaaa')).toBe(false)
    expect(store.isOnline('acct-bbbb')).toBe(true)
  })
})
