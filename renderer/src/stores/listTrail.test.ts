import { describe, expect, it } from 'vitest'
import { useFakeApp } from '@/test/fakeApp'
import { useListTrailStore, type ListTrail } from './listTrail'

const fake = useFakeApp()
type Call = { op: string; input: { query?: Record<string, unknown> } }
const answer = (data: unknown) => ({ data, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })

const trail = (over: Partial<ListTrail> = {}): ListTrail => ({
  accountId: 'acct-aaaa',
  resourceKey: 'vulnerabilities',
  op: 'vulnerabilities.list',
  query: { severity: 'high', sort: 'title' },
  page: 2,
  perPage: 3,
  total: 8,
  ids: ['v4', 'v5', 'v6'],
  ...over,
})
const pages: Record<number, string[]> = {
  1: ['v1', 'v2', 'v3'],
  2: ['v4', 'v5', 'v6'],
  3: ['v7', 'v8'],
}
const asked: Call[] = []
function serve() {
  asked.length = 0
  fake.handle('api.call', (p: Call) => {
    asked.push(p)
    const ids = pages[Number(p.input.query?.page)] ?? []
    return answer({ data: ids.map((id) => ({ id, type: 'vulnerability', attributes: {} })) })
  })
}

describe('the list a record was opened from', () => {
  it('gives the next and previous record on the same page without asking', async () => {
    serve()
    const store = useListTrailStore()
    store.remember(trail())
    expect(await store.neighbour('acct-aaaa', 'vulnerabilities', 'v5', 1)).toEqual({ id: 'v6' })
    expect(await store.neighbour('acct-aaaa', 'vulnerabilities', 'v5', -1)).toEqual({ id: 'v4' })
    expect(asked).toEqual([])
  })

  it('reads the next or previous page with the list’s filters at an edge', async () => {
    serve()
    const store = useListTrailStore()
    store.remember(trail())
    expect(await store.neighbour('acct-aaaa', 'vulnerabilities', 'v6', 1)).toEqual({ id: 'v7' })
    expect(asked[0]).toMatchObject({
      op: 'vulnerabilities.list',
      input: { query: { severity: 'high', sort: 'title', page: 3, per_page: 3 } },
    })
    // the trail is now that page: p from its first goes back a page
    expect(await store.neighbour('acct-aaaa', 'vulnerabilities', 'v7', -1)).toEqual({ id: 'v6' })
    expect(asked.at(-1)?.input.query?.page).toBe(2)
  })

  it('says where there is none: the list’s ends, another resource or account, no list', async () => {
    serve()
    const store = useListTrailStore()
    store.remember(trail({ page: 1, ids: ['v1', 'v2', 'v3'] }))
    expect(await store.neighbour('acct-aaaa', 'vulnerabilities', 'v1', -1)).toEqual({
      none: 'This is the first record of the list.',
    })
    store.remember(trail({ page: 3, ids: ['v7', 'v8'] }))
    expect(await store.neighbour('acct-aaaa', 'vulnerabilities', 'v8', 1)).toEqual({
      none: 'This is the last record of the list.',
    })
    const notFromList = { none: 'This record was not opened from a list.' }
    expect(await store.neighbour('acct-bbbb', 'vulnerabilities', 'v7', 1)).toEqual(notFromList)
    expect(await store.neighbour('acct-aaaa', 'hosts', 'v7', 1)).toEqual(notFromList)
    expect(await store.neighbour('acct-aaaa', 'vulnerabilities', 'v1', 1)).toEqual(notFromList)
    expect(asked).toEqual([])
  })
})
