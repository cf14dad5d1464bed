import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MemoryVault } from './accounts/memory-vault'
import { ResilientVault } from './accounts/resilient-vault'
import { startCore } from './start'

const order = vi.hoisted(() => [] as string[])

// Records when the rest of the core (index.ts and everything it imports) loads.
vi.mock('./index', async (importOriginal) => {
  order.push('core loaded')
  return importOriginal()
})

let dataDir: string | null = null

afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  dataDir = null
  order.length = 0
})

describe('startCore', () => {
  it('asks the keychain before the rest of the core loads, and answers once it has', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'scandesk-start-'))
    let answer: () => void = () => undefined
    const answered = new Promise<void>((resolve) => (answer = resolve))
    const keychain = new MemoryVault()
    const vault = new ResilientVault({
      keychain: async () => {
        order.push('keychain asked')
        await answered
        order.push('keychain answered')
        return keychain
      },
    })
    await keychain.set('a1', 'session_token', 'token')
    const starting = startCore({
      dataDir,
      mode: 'electron',
      version: 'test',
      vault,
      notificationIntervalMs: 0,
    })
    await vi.waitFor(() => expect(order).toEqual(['keychain asked', 'core loaded']))
    answer()
    const core = await starting
    try {
      expect(order).toEqual(['keychain asked', 'core loaded', 'keychain answered'])
      const listed = JSON.parse(await core.dispatch('accounts.list', {}, { origin: 'electron' }))
      expect(listed).toMatchObject({ ok: true, data: { accounts: [], activeId: null } })
      const info = JSON.parse(await core.dispatch('app.info', {}, { origin: 'electron' }))
      expect(info).toMatchObject({ ok: true, data: { keychain: { available: true } } })
    } finally {
      await core.close()
    }
  })
})
