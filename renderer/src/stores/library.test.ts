import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { LedgerEntry } from '@contract/files'
import { deferred, installFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { account as baseAccount, ledgerEntry } from '@/test/fixtures'
import { useAccountsStore } from './accounts'
import { useLibraryStore } from './library'

let fake: FakeScandesk
const account = (id: string, extra: Partial<AccountView> = {}) =>
  baseAccount(id, {
    impersonating: null,
    rememberPassword: false,
    hasCaBundle: false,
    awaitingReauth: false,
    ...extra,
  })
const three = () => [account('acct-aaaa'), account('acct-bbbb'), account('acct-cccc')]
const entries = [
  ledgerEntry({ accountId: 'acct-aaaa', resourceName: 'A file' }),
  ledgerEntry({ accountId: 'acct-bbbb', resourceName: 'B file' }),
]

beforeEach(() => {
  fake = installFakeScandesk()
  setActivePinia(createPinia())
  fake.handle('library.list', (p: { accountId?: string }) =>
    entries.filter((e) => !p.accountId || e.accountId === p.accountId),
  )
  fake.handle('accounts.setActive', (p: { accountId: string }) => ({
    accounts: three(),
    activeId: p.accountId,
  }))
  useAccountsStore()
  fake.emit('accounts.changed', { accounts: three(), activeId: 'acct-aaaa' })
})
afterEach(() => {
  delete window.scandesk
})

const names = () => useLibraryStore().entries.map((e) => e.resourceName)

describe('the library across account switches', () => {
  it('moves a filter on the previous account to the new one and reloads', async () => {
    const library = useLibraryStore()
    library.accountFilter = 'acct-aaaa'
    await library.load()
    expect(names()).toEqual(['A file'])
    await useAccountsStore().setActive('acct-bbbb')
    expect(library.accountFilter).toBe('acct-bbbb')
    await flushPromises()
    expect(names()).toEqual(['B file'])
  })

  it('drops a list answer started before the switch', async () => {
    const slow = deferred<LedgerEntry[]>()
    fake.handle('library.list', () => slow.promise)
    const library = useLibraryStore()
    library.accountFilter = 'acct-aaaa'
    const loading = library.load()
    fake.handle('library.list', () => [entries[1]])
    await useAccountsStore().setActive('acct-bbbb')
    await flushPromises()
    slow.resolve([entries[0]])
    await loading
    expect(names()).toEqual(['B file'])
  })

  it('shows only the active account by default and follows it across switches', async () => {
    const library = useLibraryStore()
    expect(library.accountFilter).toBe('acct-aaaa')
    await library.load()
    expect(names()).toEqual(['A file'])
    await useAccountsStore().setActive('acct-bbbb')
    expect(library.accountFilter).toBe('acct-bbbb')
    await flushPromises()
    expect(names()).toEqual(['B file'])
  })

  it('keeps a filter the user set on "all accounts" or on a third account', async () => {
    const library = useLibraryStore()
    library.chooseAccount(null)
    await library.load()
    expect(names()).toEqual(['A file', 'B file'])
    await useAccountsStore().setActive('acct-bbbb')
    expect(library.accountFilter).toBeNull()
    library.chooseAccount('acct-aaaa')
    await useAccountsStore().setActive('acct-cccc')
    expect(library.accountFilter).toBe('acct-aaaa')
  })
})
