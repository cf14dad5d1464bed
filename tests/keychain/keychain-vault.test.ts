// The keychain vault against a real Secret Service (gnome-keyring in a private D-Bus session,
// started by scripts/test.sh), and the in-memory fallback when there is no D-Bus at all.
import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  createKeychainVault,
  KeychainVault,
  loadKeytar,
  MAX_SECRET_BYTES,
  type KeytarApi,
} from '../../electron/core/accounts/keychain-vault'
import { ResilientVault } from '../../electron/core/accounts/resilient-vault'
import { openDatabase } from '../../electron/core/store/database'
import { TombstonesRepo } from '../../electron/core/store/tombstones-repo'
import type { Result } from '@contract/errors'
import type { CacheStatus } from '@contract/offline'
import type { ApiCallOutput } from '@contract/channels'
import { startSandbox } from '../../sandbox/server'
import { addAnalyst, bytesOf, startTestCore } from '../integration/core-helpers'

const READY = process.env.SCANDESK_KEYRING_READY === '1'
const CI = process.env.CI === 'true'
const run = promisify(execFile)

async function realVault(): Promise<KeychainVault> {
  const vault = await createKeychainVault()
  if (!(vault instanceof KeychainVault)) throw new Error(`keytar did not load: ${vault.reason}`)
  return vault
}

if (!READY && CI) {
  describe('the keychain test environment', () => {
    it('provides an unlocked Secret Service', () => {
      throw new Error(
        'SCANDESK_KEYRING_READY is not set, so there is no unlocked keyring to test against. Run the suite with `npm test` (scripts/test.sh starts dbus-run-session and gnome-keyring-daemon).',
      )
    })
  })
}

describe.skipIf(!READY)(
  'the keychain vault against the Secret Service (needs SCANDESK_KEYRING_READY=1, set by npm test)',
  () => {
    it('reports the keychain available', async () => {
      expect(await (await realVault()).status()).toEqual({ available: true, message: null })
    })

    it('stores, reads, replaces and deletes a secret', async () => {
      const vault = await realVault()
      const id = `kc-${randomUUID()}`
      await vault.set(id, 'api_key', 'first')
      await vault.set(id, 'api_key', 'second')
      expect(await vault.get(id, 'api_key')).toBe('second')
      expect(await (await realVault()).get(id, 'api_key')).toBe('second')
      await vault.delete(id, 'api_key')
      expect(await vault.get(id, 'api_key')).toBeNull()
      await vault.delete(id, 'api_key')
    })

    it('keeps two accounts’ entries independent and deletes all of one', async () => {
      const vault = await realVault()
      const a = `kc-${randomUUID()}`
      const b = `kc-${randomUUID()}`
      await vault.set(a, 'api_key', 'ka')
      await vault.set(a, 'session_token', 'ta')
      await vault.set(b, 'api_key', 'kb')
      await vault.set(b, 'session_token', 'tb')
      await vault.deleteAll(a)
      expect(await vault.get(a, 'api_key')).toBeNull()
      expect(await vault.get(a, 'session_token')).toBeNull()
      expect(await vault.get(b, 'api_key')).toBe('kb')
      expect(await vault.get(b, 'session_token')).toBe('tb')
      await vault.deleteAll(b)
    })

    it('is what the resilient vault uses while it works', async () => {
      const resilient = new ResilientVault({ keychain: () => createKeychainVault() })
      const id = `kc-${randomUUID()}`
      await resilient.set(id, 'session_token', 'in-the-keychain')
      expect(await resilient.status()).toEqual({ available: true, message: null })
      expect(await (await realVault()).get(id, 'session_token')).toBe('in-the-keychain')
      await resilient.deleteAll(id)
      expect(await (await realVault()).get(id, 'session_token')).toBeNull()
    })

    it('finishes at the next start a delete the keychain refused, recorded in SQLite', async () => {
      const loaded = await loadKeytar()
      if ('reason' in loaded) throw new Error(loaded.reason)
      const refusing: KeytarApi = {
        ...loaded.keytar,
        getPassword: (s, a) => loaded.keytar.getPassword(s, a),
        setPassword: (s, a, p) => loaded.keytar.setPassword(s, a, p),
        deletePassword: () => Promise.reject(new Error('org.freedesktop.DBus.Error.NoReply')),
      }
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-tomb-'))
      const db = openDatabase(dataDir)
      try {
        const id = `kc-${randomUUID()}`
        const first = new ResilientVault({
          keychain: () => createKeychainVault({ keytar: refusing }),
          tombstones: new TombstonesRepo(db),
          retryDelayMs: 1,
        })
        await first.set(id, 'session_token', 'signed-out-session')
        await first.delete(id, 'session_token')
        expect(first.undeleted(id)).toEqual(['session_token'])
        expect(await first.get(id, 'session_token')).toBeNull()
        expect(await (await realVault()).get(id, 'session_token')).toBe('signed-out-session')
        const next = new ResilientVault({
          keychain: () => createKeychainVault(),
          tombstones: new TombstonesRepo(db),
        })
        expect(await next.status()).toEqual({ available: true, message: null })
        expect(await (await realVault()).get(id, 'session_token')).toBeNull()
        expect(new TombstonesRepo(db).list()).toEqual([])
      } finally {
        db.close()
        fs.rmSync(dataDir, { recursive: true, force: true })
      }
    })

    it('keeps the account’s key there: the copy and a sealed draft read after a restart, and it goes with the account', async () => {
      const sandbox = await startSandbox({ port: 0, log: () => undefined })
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-kc-cache-'))
      try {
        let t = await startTestCore({ dataDir, useDefaultVault: true })
        const account = await addAnalyst(t, sandbox)
        const online = await t.ok<ApiCallOutput>('api.call', {
          accountId: account.id,
          op: 'targets.list',
        })
        const draft = { accountId: account.id, kind: 'saq', key: 'kc-draft' }
        await t.ok('drafts.save', { ...draft, data: { explanation: 'KC-draft-text' } })
        await t.close()
        expect(bytesOf(dataDir).includes(Buffer.from('KC-draft-text'))).toBe(false)
        expect(await (await realVault()).get(account.id, 'cache_key')).toMatch(
          /^[A-Za-z0-9+/=]{44}$/,
        )
        t = await startTestCore({ dataDir, useDefaultVault: true })
        await t.ok('connectivity.setWorkOffline', { on: true })
        expect(
          await t.ok<ApiCallOutput>('api.call', { accountId: account.id, op: 'targets.list' }),
        ).toEqual({ ...online, fromCache: true })
        // The draft was sealed with the same key: it opens after the restart.
        expect(await t.ok<{ data: unknown }>('drafts.get', draft)).toMatchObject({
          data: { explanation: 'KC-draft-text' },
        })
        await t.ok('accounts.remove', { accountId: account.id })
        expect(await (await realVault()).get(account.id, 'cache_key')).toBeNull()
        await t.close()
      } finally {
        await sandbox.close()
        fs.rmSync(dataDir, { recursive: true, force: true })
      }
    })

    it('refuses a secret over 2,560 bytes and stores one of exactly 2,560', async () => {
      const resilient = new ResilientVault({ keychain: () => createKeychainVault() })
      const id = `kc-${randomUUID()}`
      await expect(resilient.set(id, 'api_key', 'k'.repeat(MAX_SECRET_BYTES + 1))).rejects.toThrow(
        /at most 2,560 bytes/,
      )
      expect(resilient.inMemoryOnly).toBe(false)
      expect(await (await realVault()).get(id, 'api_key')).toBeNull()
      await resilient.set(id, 'api_key', 'k'.repeat(MAX_SECRET_BYTES))
      expect(await (await realVault()).get(id, 'api_key')).toHaveLength(MAX_SECRET_BYTES)
      await resilient.deleteAll(id)
    })
  },
)

/** What the child tries to keep as a draft (no-keychain-child.ts). */
const DRAFT_TEXT = 'NOKC-draft-explanation'

describe('without a reachable keychain', () => {
  it('keeps secrets in memory, says so plainly, and writes none to the data folder', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-nokc-'))
    const marker = `NOKC${randomUUID().replace(/-/g, '')}`
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'tests/keychain/no-keychain-child.ts'],
      {
        env: {
          ...process.env,
          DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(dataDir, 'no-such-bus')}`,
          TSX_TSCONFIG_PATH: 'tsconfig.node.json',
          CHILD_DATA_DIR: dataDir,
          CHILD_API_KEY: `key-${marker}`,
        },
        timeout: 60_000,
      },
    )
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      info: { keychain: { available: boolean; message: string } }
      view: { signedIn: boolean; secretsInMemoryOnly: boolean }
      vaultStatus: { available: boolean; message: string }
      token: string | null
      cache: CacheStatus
      draft: Result<unknown>
    }
    for (const status of [out.info.keychain, out.vaultStatus]) {
      expect(status.available).toBe(false)
      expect(status.message).toMatch(
        /^The system keychain is not available \(.+\); secrets are kept in memory until ScanDesk quits\.$/,
      )
    }
    expect(out.view).toMatchObject({ signedIn: true, secretsInMemoryOnly: true })
    // The read is held in memory for this run only: nothing of it reaches the data folder.
    expect(out.cache).toMatchObject({ persisted: false, entries: 1 })
    expect(out.cache.message).toMatch(/nothing new is written to it .* until ScanDesk quits/)
    // Without the account's key a draft is kept in memory for the run, and says so: nothing of
    // it is written (the check of the data folder below).
    expect(out.draft).toMatchObject({ ok: true, data: { kept: 'memory' } })
    expect(out.token).toBeTruthy()
    const bytes = bytesOf(dataDir)
    expect(bytes.length).toBeGreaterThan(0)
    for (const secret of [marker, out.token!, 'sandbox-password', DRAFT_TEXT])
      expect(bytes.includes(Buffer.from(secret))).toBe(false)
  }, 90_000)
})
