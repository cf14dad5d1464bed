import { describe, expect, it } from 'vitest'
import { AccountsRepo, type AccountRow } from './accounts-repo'
import { SettingsRepo } from './settings-repo'
import { accountRow } from './test-account'
import { useTestDb } from './test-db'

const t = useTestDb('scandesk-repo-')

const row = accountRow

describe('the accounts table', () => {
  it('stores, lists, updates and deletes accounts with their flags', () => {
    const repo = new AccountsRepo(t.db)
    repo.insert(row())
    repo.insert(row({ id: 'acc-00000002', isDemo: true, createdAt: '2025-02-01T00:00:00.000Z' }))
    expect(repo.list().map((a) => a.id)).toEqual(['acc-00000001', 'acc-00000002'])
    expect(repo.findDemo()?.id).toBe('acc-00000002')
    const updated = repo.update('acc-00000002', { baseUrl: 'http://127.0.0.1:5555' }, 'later')
    expect(updated).toMatchObject({
      baseUrl: 'http://127.0.0.1:5555',
      updatedAt: 'later',
      isDemo: true,
    })
    expect(repo.delete('acc-00000001')).toBe(true)
    expect(repo.delete('acc-00000001')).toBe(false)
    expect(repo.get('acc-00000001')).toBeUndefined()
  })

  it('answers reads from memory yet always shows the latest write, from any repo on the file', () => {
    const a = new AccountsRepo(t.db)
    const b = new AccountsRepo(t.db)
    a.insert(row())
    const first = a.get('acc-00000001')
    expect(first?.label).toBe('Acme')
    if (first) first.label = 'changed by a caller'
    expect(a.get('acc-00000001')?.label).toBe('Acme')
    b.update('acc-00000001', { label: 'Acme EU', release: '5.4.2' }, 'later')
    expect(a.get('acc-00000001')).toMatchObject({ label: 'Acme EU', release: '5.4.2' })
    b.delete('acc-00000001')
    expect(a.get('acc-00000001')).toBeUndefined()
  })

  it('does not keep a row read inside a transaction that rolls back', () => {
    const repo = new AccountsRepo(t.db)
    expect(() =>
      t.db.transaction(() => {
        repo.insert(row())
        expect(repo.get('acc-00000001')?.id).toBe('acc-00000001')
        throw new Error('roll back')
      })(),
    ).toThrow('roll back')
    expect(repo.get('acc-00000001')).toBeUndefined()
  })

  it('finds the demo account from memory yet sees one added, changed or removed, from any repo', () => {
    const a = new AccountsRepo(t.db)
    const b = new AccountsRepo(t.db)
    a.insert(row())
    expect(a.findDemo()).toBeUndefined()
    b.insert(row({ id: 'acc-00000002', isDemo: true, createdAt: '2025-02-01T00:00:00.000Z' }))
    expect(a.findDemo()?.id).toBe('acc-00000002')
    b.update('acc-00000002', { baseUrl: 'http://127.0.0.1:5555' }, 'later')
    expect(a.findDemo()?.baseUrl).toBe('http://127.0.0.1:5555')
    b.delete('acc-00000002')
    expect(a.findDemo()).toBeUndefined()
    expect(() =>
      t.db.transaction(() => {
        a.insert(row({ id: 'acc-00000003', isDemo: true }))
        expect(a.findDemo()?.id).toBe('acc-00000003')
        throw new Error('roll back')
      })(),
    ).toThrow('roll back')
    expect(a.findDemo()).toBeUndefined()
  })

  it('keeps the CA bundle, the remember-password flag and the impersonation, and clears them', () => {
    const repo = new AccountsRepo(t.db)
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'
    repo.insert(row({ caBundle: pem, rememberPassword: true }))
    expect(repo.get('acc-00000001')).toMatchObject({
      caBundle: pem,
      rememberPassword: true,
      impersonating: null,
    })
    const since = '2025-03-01T00:00:00.000Z'
    const who = { userId: 'usr-002', email: 'analyst@example.com', since }
    repo.update('acc-00000001', { impersonating: who, authMethod: 'access_token' }, 'later')
    const copy = repo.get('acc-00000001')
    expect(copy).toMatchObject({ impersonating: who, authMethod: 'access_token' })
    if (copy?.impersonating) copy.impersonating.email = 'changed by a caller'
    expect(repo.get('acc-00000001')?.impersonating?.email).toBe('analyst@example.com')
    repo.update(
      'acc-00000001',
      { caBundle: null, rememberPassword: false, impersonating: null },
      'later',
    )
    t.reopen()
    expect(new AccountsRepo(t.db).get('acc-00000001')).toMatchObject({
      caBundle: null,
      rememberPassword: false,
      impersonating: null,
      authMethod: 'access_token',
    })
  })

  it('refuses an unknown authentication method', () => {
    const repo = new AccountsRepo(t.db)
    expect(() => repo.insert(row({ authMethod: 'magic' as AccountRow['authMethod'] }))).toThrow()
  })
})

describe('the settings table', () => {
  it('keeps JSON values across a re-open and removes a key set to undefined', () => {
    new SettingsRepo(t.db).set('theme', 'dark')
    new SettingsRepo(t.db).set('active', { id: 'x' })
    t.reopen()
    const settings = new SettingsRepo(t.db)
    expect(settings.get('theme', 'system')).toBe('dark')
    expect(settings.get('active', null)).toEqual({ id: 'x' })
    settings.set('theme', undefined)
    expect(settings.get('theme', 'system')).toBe('system')
  })
})
