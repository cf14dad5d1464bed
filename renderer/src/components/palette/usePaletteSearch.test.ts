import { useQueryCache } from '@pinia/colada'
import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { operationKey } from '@/data/keys'
import { Fail } from '@/test/fakeScandesk'
import { apiCalls, mountComposable, useTwoAccounts } from '@/test/composables'
import { recordSources } from './recordSources'
import type { PaletteSourceFactory } from './types'
import { MIN_SEARCH, usePaletteSearch } from './usePaletteSearch'

type Call = { op: string; input?: { query?: { search?: string } }; requestId?: string }

/** A list answer whose rows are named after the search and the operation. */
function rowsFor(call: Call, n = 2) {
  const kind = call.op.split('.')[0]
  const search = call.input?.query?.search ?? ''
  return {
    data: {
      data: Array.from({ length: n }, (_, i) => ({
        id: `${kind}-${search}-${i + 1}`,
        type: kind,
        attributes: { name: `${kind} ${search} ${i + 1}`, title: `${search} finding ${i + 1}` },
      })),
    },
    fetchedAt: '2030-01-01T00:00:00.000Z',
    fromCache: false,
  }
}

// A local source of two screens, filtered by label: what the palette's own sources are like.
const screens: PaletteSourceFactory = () => ({
  mode: 'local',
  key: 'screens',
  heading: 'Screens',
  items: (text) =>
    [
      { key: 'dashboard', label: 'Dashboard', to: '/dashboard' },
      { key: 'targets', label: 'Targets', to: '/targets' },
    ].filter((s) => s.label.toLowerCase().includes(text.toLowerCase())),
})

const mounted: { unmount: () => void }[] = []
afterEach(() => {
  while (mounted.length) mounted.pop()!.unmount()
})

/** The palette's search over `sources`, asking as soon as typing stops (no debounce wait). */
function palette(sources: PaletteSourceFactory[] = [screens, recordSources]) {
  const host = mountComposable(() => ({
    search: usePaletteSearch(sources, { debounceMs: 0 }),
    cache: useQueryCache(),
  }))
  mounted.push(host)
  return host.result
}

async function type(p: ReturnType<typeof palette>['search'], text: string) {
  p.text.value = text
  await flushPromises()
  await new Promise((resolve) => setTimeout(resolve, 5))
  await flushPromises()
}

describe('the palette’s search', () => {
  const fake = useTwoAccounts((fake) => fake.handle('api.call', (p: Call) => rowsFor(p)))

  it('groups what it finds by source, in the sources’ order, leaving out empty groups', async () => {
    const { search } = palette()
    await type(search, 'ta')
    const groups = search.groups.value
    expect(groups.map((g) => g.key)).toEqual([
      'screens',
      'records:targets',
      'records:scans',
      'records:hosts',
      'records:vulnerabilities',
      'records:exceptions',
      'records:reports',
      'records:users',
      'records:saq',
    ])
    expect(groups[0].items.map((i) => i.label)).toEqual(['Targets'])
    expect(groups[1].heading).toBe('Targets')
    expect(groups[1].items.map((i) => i.label)).toEqual(['targets ta 1', 'targets ta 2'])
    expect(groups[1].items[0].to).toEqual({
      name: 'targets-detail',
      params: { id: 'targets-ta-1' },
    })
    // Vulnerabilities are named by their title.
    expect(groups[4].items[0].label).toBe('ta finding 1')
    // The keyboard walks the groups in the same order.
    expect(search.options.value.map((o) => o.item.label).slice(0, 3)).toEqual([
      'Targets',
      'targets ta 1',
      'targets ta 2',
    ])
  })

  it('asks every group at once, each with the list’s search, for this window’s account', async () => {
    const held: (() => void)[] = []
    fake.handle(
      'api.call',
      (p: Call) => new Promise((resolve) => held.push(() => resolve(rowsFor(p)))),
    )
    const { search } = palette()
    await type(search, 'pay')
    const calls = apiCalls(fake)
    expect(calls.map((c) => c.op).sort()).toEqual(
      [
        'exceptions.list',
        'hosts.list',
        'reports.list',
        'saq.list',
        'scans.list',
        'targets.list',
        'users.list',
        'vulnerabilities.list',
      ].sort(),
    )
    expect(calls.every((c) => c.accountId === 'acct-aaaa')).toBe(true)
    expect(calls.map((c) => c.input)).toContainEqual({ query: { search: 'pay', per_page: 5 } })
    expect(search.searching.value).toBe(true)
    expect(search.groups.value.filter((g) => g.state === 'loading')).toHaveLength(8)
    held.forEach((answer) => answer())
    await flushPromises()
    expect(search.searching.value).toBe(false)
  })

  it('asks for a CVE identifier with the vulnerabilities’ cve_id filter', async () => {
    const { search } = palette()
    await type(search, 'cve-2021-44228')
    const vulns = apiCalls(fake).find((c) => c.op === 'vulnerabilities.list')
    expect(vulns?.input).toEqual({ query: { cve_id: 'CVE-2021-44228', per_page: 5 } })
  })

  it(`asks nothing for fewer than ${MIN_SEARCH} characters, and says so`, async () => {
    const { search } = palette()
    await type(search, 't')
    expect(apiCalls(fake)).toEqual([])
    expect(search.tooShort.value).toBe(true)
    expect(search.groups.value.map((g) => g.key)).toEqual(['screens'])
  })

  it('cancels a superseded search in main and shows only the newer one’s records', async () => {
    const late: (() => void)[] = []
    fake.handle('api.call', (p: Call) =>
      p.input?.query?.search === 'we'
        ? new Promise((resolve) => late.push(() => resolve(rowsFor(p))))
        : rowsFor(p),
    )
    const { search } = palette([recordSources])
    await type(search, 'we')
    const first = apiCalls(fake).filter((c) => c.requestId)
    expect(first).toHaveLength(8)
    await type(search, 'web')
    const cancelled = fake.calls
      .filter((c) => c.channel === 'api.cancel')
      .map((c) => (c.payload as { requestId: string }).requestId)
    expect(cancelled.sort()).toEqual(first.map((c) => c.requestId).sort())
    // The old answers arrive after all: they are not shown.
    late.forEach((answer) => answer())
    await flushPromises()
    const labels = search.groups.value.flatMap((g) => g.items.map((i) => i.label))
    expect(labels).toContain('targets web 1')
    expect(labels.some((l) => / we /.test(l))).toBe(false)
  })

  it('shows a group that failed with the service’s message, the others as found', async () => {
    fake.handle('api.call', (p: Call) =>
      p.op === 'users.list'
        ? new Fail({ code: 'FORBIDDEN', message: 'You may not list users.' })
        : rowsFor(p),
    )
    const { search } = palette([recordSources])
    await type(search, 'ad')
    const users = search.groups.value.find((g) => g.key === 'records:users')
    expect(users).toMatchObject({ state: 'error', message: 'You may not list users.', items: [] })
    expect(search.groups.value.find((g) => g.key === 'records:targets')?.items).toHaveLength(2)
  })

  it('searches the records this computer keeps when the account is offline, and says so', async () => {
    fake.handle('api.call', () => new Fail({ code: 'OFFLINE', message: 'No offline copy yet.' }))
    const { search, cache } = palette([recordSources])
    // A targets list opened earlier (from the service or the copy) is in memory.
    cache.setQueryData(operationKey('acct-aaaa', 'targets.list', { query: { page: 1 } }), {
      data: {
        data: [
          { id: 'tgt-1', type: 'target', attributes: { name: 'Payment API', address: '10.0.0.1' } },
          { id: 'tgt-2', type: 'target', attributes: { name: 'Mail relay', address: '10.0.0.2' } },
        ],
      },
      fetchedAt: '2030-01-01T00:00:00.000Z',
      fromCache: true,
    })
    fake.emit('connectivity.mode', { workOffline: true, network: null })
    await flushPromises()
    expect(search.offline.value).toBe(true)
    await type(search, 'payment')
    const targets = search.groups.value.find((g) => g.key === 'records:targets')
    expect(targets).toMatchObject({ state: 'ready', fromCopy: true })
    expect(targets?.items.map((i) => i.label)).toEqual(['Payment API'])
    // The copy was asked first (a search made online before would be there).
    expect(apiCalls(fake).some((c) => c.op === 'targets.list')).toBe(true)
  })

  it('moves the cursor round the ends and back to the first option when the text changes', async () => {
    const { search } = palette([screens])
    expect(search.active.value?.item.label).toBe('Dashboard')
    search.move(1)
    expect(search.active.value?.item.label).toBe('Targets')
    search.move(1)
    expect(search.active.value?.item.label).toBe('Dashboard')
    search.move(-1)
    expect(search.active.value?.item.label).toBe('Targets')
    await type(search, 'a')
    expect(search.active.value?.item.label).toBe('Dashboard')
  })
})
