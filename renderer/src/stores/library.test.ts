import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import type { LedgerEntry } from '@contract/files'
import { useFakeApp } from '@/test/fakeApp'
import { deferred } from '@/test/fakeScandesk'
import { account, ledgerEntry } from '@/test/fixtures'
import { useAccountsStore } from './accounts'
import { useLibraryStore } from './library'

const three = () => [account('acct-aaaa'), account('acct-bbbb'), account('acct-cccc')]
const entries = [
  ledgerEntry({ accountId: 'acct-aaaa', resourceName: 'A file' }),
  ledgerEntry({ accountId: 'acct-bbbb', resourceName: 'B file' }),
]

const fake = useFakeApp({
  accounts: three,
  switchable: true,
  setup: (fake) =>
    fake.handle('library.list', (p: { accountId?: string }) =>
      entries.filter((e) => !p.accountId || e.accountId === p.accountId),
    ),
})

const names = () => useLibraryStore().entries.map((e) => e.resourceName)

describe('the library across account switches', () => {
  it.each([
    {
      title: 'moves a filter on the previous account to the new one and reloads',
      start: (library: ReturnType<typeof useLibraryStore>) => {
        library.accountFilter = 'acct-aaaa'
      },
    },
    {
      title: 'shows only the active account by default and follows it across switches',
      start: (library: ReturnType<typeof useLibraryStore>) => {
        expect(library.accountFilter).toBe('acct-aaaa')
      },
    },
  ])('$title', async ({ start }) => {
    const library = useLibraryStore()
    start(library)
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
