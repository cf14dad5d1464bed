import { useQueryCache } from '@pinia/colada'
import { afterEach, describe, expect, it } from 'vitest'
import { Fail } from '@/test/fakeScandesk'
import { mountComposable, useTwoAccounts } from '@/test/composables'
import { operationKey } from './keys'
import { cachedRows, searchList, type ListSearch } from './searchRecords'

const target = (id: string, name: string) => ({ id, type: 'target', attributes: { name } })
const answer = (rows: unknown[], fromCache = false) => ({
  data: { data: rows },
  fetchedAt: '2030-01-01T00:00:00.000Z',
  fromCache,
})

const search: ListSearch = {
  op: 'targets.list',
  input: { query: { search: 'pay', per_page: 2 } },
  matches: (row) => String(row.attributes.name).toLowerCase().includes('pay'),
  limit: 2,
}

const mounted: { unmount: () => void }[] = []
afterEach(() => {
  while (mounted.length) mounted.pop()!.unmount()
})

/** The query cache with two target list pages of acct-aaaa and one of acct-bbbb in it. */
function cacheWithLists() {
  const host = mountComposable(() => useQueryCache())
  mounted.push(host)
  const cache = host.result
  cache.setQueryData(
    operationKey('acct-aaaa', 'targets.list', { query: { page: 1 } }),
    answer([target('t1', 'Payment API'), target('t2', 'Mail relay')], true),
  )
  cache.setQueryData(
    operationKey('acct-aaaa', 'targets.list', { query: { page: 2 } }),
    answer([target('t1', 'Payment API'), target('t3', 'Payroll'), { id: 7 }]),
  )
  cache.setQueryData(
    operationKey('acct-bbbb', 'targets.list', { query: { page: 1 } }),
    answer([target('t9', 'Payments of B')]),
  )
  return cache
}

/** searchList for acct-aaaa over those lists, `offline` or not, never cancelled. */
const searchIn = (what: ListSearch, offline: boolean) =>
  searchList(cacheWithLists(), 'acct-aaaa', what, offline, new AbortController().signal)
const searchOnline = () => searchIn(search, false)

describe('searching a list for the palette', () => {
  const fake = useTwoAccounts()

  it('holds each record of the account’s answers in memory once, none of another account', () => {
    const rows = cachedRows(cacheWithLists(), 'acct-aaaa', 'targets.list')
    expect(rows.map((r) => r.id)).toEqual(['t1', 't2', 't3'])
  })

  it('online, gives the service’s answer, at most `limit` rows', async () => {
    fake.handle('api.call', () =>
      answer([target('s1', 'Pay 1'), target('s2', 'Pay 2'), target('s3', 'Pay 3')]),
    )
    const found = await searchOnline()
    expect(found).toEqual({
      rows: [
        { id: 's1', attributes: { name: 'Pay 1' } },
        { id: 's2', attributes: { name: 'Pay 2' } },
      ],
      fromCopy: false,
    })
  })

  it('falls back on the rows in memory when the service turns out to be out of reach', async () => {
    fake.handle('api.call', () => new Fail({ code: 'OFFLINE', message: 'No offline copy yet.' }))
    const found = await searchOnline()
    expect(found.rows.map((r) => r.attributes.name)).toEqual(['Payment API', 'Payroll'])
    expect(found.fromCopy).toBe(true)
  })

  it('offline, joins the copy of that search with the rows in memory', async () => {
    fake.handle('api.call', () => answer([target('t3', 'Payroll')], true))
    const found = await searchIn({ ...search, limit: 5 }, true)
    expect(found.rows.map((r) => r.id)).toEqual(['t3', 't1'])
    expect(found.fromCopy).toBe(true)
  })

  it('passes on any other failure', async () => {
    fake.handle('api.call', () => new Fail({ code: 'FORBIDDEN', message: 'Not for you.' }))
    await expect(searchIn(search, true)).rejects.toMatchObject({ message: 'Not for you.' })
  })
})
