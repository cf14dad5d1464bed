import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { ref } from 'vue'
import { apiCalls, mountComposable, switchAccount, useTwoAccounts } from '@/test/composables'
import { Fail, type FakeScandesk } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { useAppStore } from '@/stores/app'
import { useOperation } from './useOperation'
import { nameText, useNames, type NameRef, type NameSource } from './useNames'

const SOURCES: Record<string, NameSource> = {
  organizations: { list: 'organizations.list', reads: ['organizations.show'], field: 'name' },
  targets: { list: 'targets.list', field: 'name' },
}
const sourceOf = (kind: string) => SOURCES[kind] ?? null

/** The records each account's service holds: id → name. */
const SERVICE: Record<string, Record<string, string>> = {
  'acct-aaaa': { 'org-001': 'Acme', 'org-002': 'Globex', 'org-003': 'Initech', 'tgt-001': 'Web' },
  'acct-bbbb': { 'org-001': 'Other Acme' },
}

interface Call {
  accountId: string
  op: string
  input?: { query?: Record<string, unknown> }
}

/** Answers lists as a service honouring `ids` does. */
function answerLists(fake: FakeScandesk) {
  fake.handle('api.call', (p: Call) => {
    const ids = String(p.input?.query?.ids ?? '')
      .split(',')
      .filter(Boolean)
    const held = SERVICE[p.accountId]
    const rows = (ids.length ? ids.filter((id) => id in held) : Object.keys(held)).map((id) => ({
      id,
      type: 'x',
      attributes: { name: held[id] },
    }))
    return {
      data: { data: rows, meta: {} },
      fetchedAt: '2030-01-01T00:00:00.000Z',
      fromCache: false,
    }
  })
}

const batchCalls = (fake: FakeScandesk) =>
  (apiCalls(fake) as Call[]).filter((c) => c.input?.query?.ids !== undefined)

const refs = (kind: string, ...ids: string[]): NameRef[] => ids.map((id) => ({ kind, id }))

const fake = useTwoAccounts()

describe('reading names in batches', () => {
  it('asks once per kind for a page, ids deduplicated and sorted, per_page as many', async () => {
    answerLists(fake)
    const page = [
      ...refs('organizations', 'org-002', 'org-001', 'org-002', 'org-001'),
      ...refs('targets', 'tgt-001'),
    ]
    const { result } = mountComposable(() => useNames(page, sourceOf))
    expect(result.nameOf('organizations', 'org-001')).toEqual({ state: 'loading' })
    await flushPromises()
    expect(batchCalls(fake).map((c) => [c.accountId, c.op, c.input?.query])).toEqual([
      ['acct-aaaa', 'organizations.list', { ids: 'org-001,org-002', per_page: 2 }],
      ['acct-aaaa', 'targets.list', { ids: 'tgt-001', per_page: 1 }],
    ])
    expect(result.nameOf('organizations', 'org-002')).toEqual({ state: 'named', name: 'Globex' })
    expect(result.nameOf('targets', 'tgt-001')).toEqual({ state: 'named', name: 'Web' })
  })

  it('keeps names across pages: a new page asks only for ids not named yet, going back asks nothing', async () => {
    answerLists(fake)
    const page = ref(refs('organizations', 'org-001', 'org-002'))
    const { result } = mountComposable(() => useNames(() => page.value, sourceOf))
    await flushPromises()
    page.value = refs('organizations', 'org-002', 'org-003')
    await flushPromises()
    page.value = refs('organizations', 'org-001', 'org-002')
    await flushPromises()
    expect(batchCalls(fake).map((c) => c.input?.query?.ids)).toEqual(['org-001,org-002', 'org-003'])
    expect(result.nameOf('organizations', 'org-003')).toEqual({ state: 'named', name: 'Initech' })
    expect(result.nameOf('organizations', 'org-001')).toEqual({ state: 'named', name: 'Acme' })
  })

  it('asks nothing for records a list or detail read already holds', async () => {
    answerLists(fake)
    mountComposable(() => useOperation('organizations.list', {}))
    await flushPromises()
    const before = apiCalls(fake).length
    const { result } = mountComposable(() => useNames(refs('organizations', 'org-003'), sourceOf))
    await flushPromises()
    expect(apiCalls(fake)).toHaveLength(before)
    expect(result.nameOf('organizations', 'org-003')).toEqual({ state: 'named', name: 'Initech' })
  })

  it('splits more than 100 ids of one kind into batches of 100', async () => {
    answerLists(fake)
    const many = Array.from({ length: 150 }, (_, i) => `tgt-${String(i + 1).padStart(3, '0')}`)
    mountComposable(() => useNames(refs('targets', ...many), sourceOf))
    await flushPromises()
    const sizes = batchCalls(fake).map((c) => c.input?.query?.per_page)
    expect(sizes).toEqual([100, 50])
  })

  it('keeps only the rows it asked for when the service ignores ids', async () => {
    // A service that does not know `ids` answers its first page: another record among them.
    fake.handle('api.call', () => ({
      data: {
        data: [
          { id: 'org-009', type: 'x', attributes: { name: 'Not asked for' } },
          { id: 'org-001', type: 'x', attributes: { name: 'Acme' } },
        ],
      },
      fetchedAt: '2030-01-01T00:00:00.000Z',
      fromCache: false,
    }))
    const { result } = mountComposable(() =>
      useNames(refs('organizations', 'org-001', 'org-404'), sourceOf),
    )
    const other = mountComposable(() => useNames(refs('organizations', 'org-009'), sourceOf))
    await flushPromises()
    expect(result.nameOf('organizations', 'org-001')).toEqual({ state: 'named', name: 'Acme' })
    expect(result.nameOf('organizations', 'org-404')).toEqual({
      state: 'unnamed',
      reason: 'missing',
    })
    // org-009 was named only in an answer to another question: it is asked for itself.
    expect(batchCalls(fake).map((c) => c.input?.query?.ids)).toContain('org-009')
    expect(other.result.nameOf('organizations', 'org-009').state).toBe('named')
  })

  it('says why where no name can be had: offline without a copy, refused, not in the release', async () => {
    fake.handle('api.call', (p: Call) =>
      p.op === 'targets.list'
        ? new Fail({ code: 'OFFLINE', message: 'Offline.' })
        : new Fail({ code: 'FORBIDDEN', message: 'No.' }),
    )
    const { result } = mountComposable(() =>
      useNames([...refs('targets', 'tgt-061'), ...refs('organizations', 'org-001')], sourceOf),
    )
    await flushPromises()
    const target = result.nameOf('targets', 'tgt-061')
    expect(nameText('tgt-061', target)).toBe('tgt-061 (name not available offline)')
    const org = result.nameOf('organizations', 'org-001')
    expect(nameText('org-001', org)).toBe('org-001 (name not available: not permitted)')
  })

  it('asks a batch refused offline again once the service is back', async () => {
    let online = false
    fake.handle('api.call', () =>
      online
        ? {
            data: { data: [{ id: 'tgt-001', type: 'target', attributes: { name: 'Web' } }] },
            fetchedAt: '2030-01-01T00:00:00.000Z',
            fromCache: false,
          }
        : new Fail({ code: 'OFFLINE', message: 'Offline.' }),
    )
    const { result } = mountComposable(() => useNames(refs('targets', 'tgt-001'), sourceOf))
    await flushPromises()
    expect(result.nameOf('targets', 'tgt-001')).toEqual({ state: 'unnamed', reason: 'offline' })
    online = true
    const app = useAppStore()
    const base = { accountId: 'acct-aaaa', message: null, nextCheckAt: null }
    fake.emit('connectivity', {
      ...base,
      state: 'offline',
      online: false,
      checkedAt: '2030-01-01T00:00:01Z',
    })
    await flushPromises()
    fake.emit('connectivity', {
      ...base,
      state: 'online',
      online: true,
      checkedAt: '2030-01-01T00:00:02Z',
    })
    await flushPromises()
    expect(app.connectivityOf('acct-aaaa').state).toBe('online')
    expect(result.nameOf('targets', 'tgt-001')).toEqual({ state: 'named', name: 'Web' })
  })

  it('names records of this window’s account only, and asks the other account afresh', async () => {
    answerLists(fake)
    const { result } = mountComposable(() => useNames(refs('organizations', 'org-001'), sourceOf))
    await flushPromises()
    expect(result.nameOf('organizations', 'org-001')).toEqual({ state: 'named', name: 'Acme' })
    await switchAccount('acct-bbbb')
    expect(result.nameOf('organizations', 'org-001')).toEqual({
      state: 'named',
      name: 'Other Acme',
    })
    expect(batchCalls(fake).map((c) => c.accountId)).toEqual(['acct-aaaa', 'acct-bbbb'])
  })

  it('asks nothing for a kind the account’s release lacks, and says so', async () => {
    answerLists(fake)
    const sources = { scanners: { list: 'scanners.list', field: 'name' } as NameSource }
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { release: '5.0.0-beta1' })],
      activeId: 'acct-aaaa',
    })
    const { result } = mountComposable(() =>
      useNames(refs('scanners', 'scr-001'), (k) => sources[k as 'scanners'] ?? null),
    )
    await flushPromises()
    expect(batchCalls(fake)).toEqual([])
    expect(result.nameOf('scanners', 'scr-001')).toEqual({ state: 'unnamed', reason: 'release' })
  })

  it('says "deleted" for an id its batch did not return once its own read answers 404, asked once', async () => {
    const confirming = (kind: string) =>
      kind === 'targets' ? { ...SOURCES.targets, confirm: 'targets.show' as const } : null
    fake.handle('api.call', (p: Call & { input?: { path?: { id?: string } } }) => {
      if (p.op === 'targets.show') {
        const id = String(p.input?.path?.id)
        return id in SERVICE[p.accountId]
          ? {
              data: {
                data: { id, type: 'target', attributes: { name: SERVICE[p.accountId][id] } },
              },
              fetchedAt: '2030-01-01T00:00:00.000Z',
              fromCache: false,
            }
          : new Fail({ code: 'NOT_FOUND', message: 'Record Not Found', status: 404 })
      }
      // a batch answering only the records that exist
      const ids = String(p.input?.query?.ids ?? '').split(',')
      return {
        data: {
          data: ids
            .filter((id) => id in SERVICE[p.accountId])
            .map((id) => ({ id, type: 'target', attributes: { name: SERVICE[p.accountId][id] } })),
        },
        fetchedAt: '2030-01-01T00:00:00.000Z',
        fromCache: false,
      }
    })
    const { result } = mountComposable(() =>
      useNames(refs('targets', 'tgt-001', 'tgt-404'), confirming),
    )
    const again = mountComposable(() => useNames(refs('targets', 'tgt-404'), confirming))
    await flushPromises()
    expect(result.nameOf('targets', 'tgt-001')).toEqual({ state: 'named', name: 'Web' })
    const gone = result.nameOf('targets', 'tgt-404')
    expect(gone).toEqual({ state: 'unnamed', reason: 'deleted' })
    expect(nameText('tgt-404', gone)).toBe('tgt-404 (deleted)')
    expect(again.result.nameOf('targets', 'tgt-404')).toEqual(gone)
    const shows = (apiCalls(fake) as Call[]).filter((c) => c.op === 'targets.show')
    expect(shows.map((c) => (c.input as { path: unknown }).path)).toEqual([{ id: 'tgt-404' }])
  })

  it('keeps "not found" where the record’s own read cannot say, and never calls a record read offline deleted', async () => {
    fake.handle('api.call', (p: Call) =>
      p.op === 'targets.show'
        ? new Fail({ code: 'OFFLINE', message: 'Offline.' })
        : { data: { data: [] }, fetchedAt: '2030-01-01T00:00:00.000Z', fromCache: false },
    )
    const confirming = (kind: string) =>
      kind === 'targets' ? { ...SOURCES.targets, confirm: 'targets.show' as const } : null
    const { result } = mountComposable(() => useNames(refs('targets', 'tgt-404'), confirming))
    await flushPromises()
    expect(result.nameOf('targets', 'tgt-404')).toEqual({ state: 'unnamed', reason: 'missing' })
  })
})
