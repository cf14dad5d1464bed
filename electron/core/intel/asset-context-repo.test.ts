import fs from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import type { AssetContextFile } from '@contract/intel/asset-context'
import { AccountKeys } from '../accounts/account-keys'
import { MemoryVault } from '../accounts/memory-vault'
import { useTestDb } from '../store/test-db'
import { AssetContextRepo } from './asset-context-repo'

const t = useTestDb('scandesk-assets-', ['acct-aaaa', 'acct-bbbb'])
let vault: MemoryVault
beforeEach(() => void (vault = new MemoryVault()))
/** A repo as a run of ScanDesk makes it (the keys kept in the same keychain across runs). */
const repo = () => new AssetContextRepo(t.db, new AccountKeys(vault))

/** Every byte the store keeps on disk (the database and its WAL). */
function diskBytes(): Buffer {
  return Buffer.concat(
    fs
      .readdirSync(t.dir)
      .filter((f) => fs.statSync(path.join(t.dir, f)).isFile())
      .map((f) => fs.readFileSync(path.join(t.dir, f))),
  )
}

const file: AssetContextFile = {
  scandeskAssetContext: 1,
  rules: [
    { match: { kind: 'name', pattern: '*.zebrapay.example.com' }, exposure: 'internet-facing' },
    { match: { kind: 'range', range: '10.77.0.0/16' }, owner: 'Quokka platform team' },
    { match: { kind: 'tag', tag: 'marmalade' }, criticality: 'crown-jewel' },
  ],
  targets: { 'tgt-walrus': { owner: 'Narwhal payments desk' } },
  hosts: { '203.0.113.77': { criticality: 'low' } },
}

describe('the asset context of an account', () => {
  it('keeps rules in order and settings per place, and clears a place', async () => {
    const r = repo()
    expect(await r.get('acct-aaaa')).toEqual({ rules: [], targets: {}, hosts: {} })
    await r.setRules('acct-aaaa', file.rules)
    await r.set('acct-aaaa', { kind: 'target', id: 'tgt-1' }, { criticality: 'high' })
    await r.set('acct-aaaa', { kind: 'host', address: '2001:db8::1' }, { owner: 'Ops' })
    t.reopen()
    const doc = await repo().get('acct-aaaa')
    expect(doc.rules).toEqual(file.rules)
    expect(doc.targets).toEqual({ 'tgt-1': { criticality: 'high' } })
    expect(doc.hosts).toEqual({ '2001:db8::1': { owner: 'Ops' } })
    await repo().set('acct-aaaa', { kind: 'target', id: 'tgt-1' }, {})
    expect((await repo().get('acct-aaaa')).targets).toEqual({})
    expect(await repo().get('acct-bbbb')).toEqual({ rules: [], targets: {}, hosts: {} })
  })

  it('leaves no owner, pattern, range, tag, target or host in plain text on disk', async () => {
    const r = repo()
    await r.apply(['acct-aaaa', 'acct-bbbb'], file)
    await r.set('acct-aaaa', { kind: 'host', address: '198.51.100.99' }, { owner: 'Okapi SRE' })
    t.db.pragma('wal_checkpoint(TRUNCATE)')
    const bytes = diskBytes()
    for (const secret of [
      'Quokka platform team',
      'Narwhal payments desk',
      'Okapi SRE',
      'zebrapay',
      '10.77.0.0',
      'marmalade',
      'tgt-walrus',
      '203.0.113.77',
      '198.51.100.99',
    ]) {
      expect(bytes.includes(Buffer.from(secret)), secret).toBe(false)
      expect(bytes.includes(Buffer.from(secret, 'utf16le')), secret).toBe(false)
    }
    expect((await r.get('acct-bbbb')).rules).toHaveLength(3)
  })

  it('a sealed context moved to another account does not open', async () => {
    await repo().setRules('acct-aaaa', file.rules)
    t.db.exec(`UPDATE asset_context SET account_id = 'acct-bbbb' WHERE account_id = 'acct-aaaa'`)
    await expect(repo().get('acct-bbbb')).rejects.toMatchObject({
      error: { code: 'INTEGRITY_FAILED' },
    })
  })

  it('import merges the file’s settings over each account’s and replaces the rules', async () => {
    const r = repo()
    await r.set('acct-aaaa', { kind: 'target', id: 'tgt-own' }, { exposure: 'internal' })
    await r.set('acct-aaaa', { kind: 'target', id: 'tgt-walrus' }, { criticality: 'low' })
    await r.setRules('acct-aaaa', [{ match: { kind: 'tag', tag: 'old' }, owner: 'Old' }])
    await r.apply(['acct-aaaa'], file)
    const doc = await r.get('acct-aaaa')
    expect(doc.rules).toEqual(file.rules)
    expect(doc.targets).toEqual({
      'tgt-own': { exposure: 'internal' },
      'tgt-walrus': { owner: 'Narwhal payments desk' },
    })
  })

  it('without the keychain nothing is read or written', async () => {
    await repo().setRules('acct-aaaa', file.rules)
    const locked = new AssetContextRepo(
      t.db,
      new AccountKeys(new MemoryVault({ available: false, message: 'locked' })),
    )
    await expect(locked.get('acct-aaaa')).rejects.toMatchObject({
      error: { code: 'KEYCHAIN_UNAVAILABLE' },
    })
    await expect(locked.apply(['acct-aaaa'], file)).rejects.toMatchObject({
      error: { code: 'KEYCHAIN_UNAVAILABLE' },
    })
  })

  it('an import naming an account that is gone changes no account', async () => {
    const r = repo()
    await expect(r.apply(['acct-bbbb', 'acct-zzzz'], file)).rejects.toMatchObject({
      error: { code: 'UNKNOWN_ACCOUNT' },
    })
    expect(await r.get('acct-bbbb')).toEqual({ rules: [], targets: {}, hosts: {} })
  })
})
