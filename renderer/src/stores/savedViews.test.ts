import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { useFakeApp } from '@/test/fakeApp'
import { serveDrafts, type StoredDrafts } from '@/test/fakeDrafts'
import { readViewsFile } from '@/data/savedViewsFile'
import { useSavedViewsStore } from './savedViews'

let stored: StoredDrafts = {}
const fake = useFakeApp({
  setup: (f) => {
    stored = serveDrafts(f, { savedAt: (n) => `2030-01-01T00:00:0${n}Z` })
  },
})

async function ready() {
  const store = useSavedViewsStore()
  await flushPromises()
  expect(store.loaded).toBe(true)
  return store
}

describe('the account’s saved views', () => {
  it('keeps a list’s address words and columns, not its page, and stores them for the account', async () => {
    const store = await ready()
    const view = await store.save({
      name: ' High first ',
      resource: 'vulnerabilities',
      query: { severity: 'high', page: '3', view: 'old', columns: 'title,severity', sort: 'title' },
    })
    expect(view).toMatchObject({
      name: 'High first',
      query: { severity: 'high', sort: 'title' },
      columns: ['title', 'severity'],
      isDefault: false,
    })
    expect(stored['acct-aaaa'].data).toEqual({ views: [view] })
    expect(store.viewsOf('vulnerabilities')).toEqual([view])
    expect(store.viewsOf('targets')).toEqual([])
    expect(store.routeOf(view)).toEqual({
      name: 'vulnerabilities',
      query: { severity: 'high', sort: 'title', columns: 'title,severity', view: view.id },
    })
    expect(fake.calls.some((c) => c.channel === 'drafts.save')).toBe(true)
  })

  it('renames, deletes, and keeps one default per list', async () => {
    const store = await ready()
    const a = await store.save({ name: 'A', resource: 'vulnerabilities', query: {} })
    const b = await store.save({ name: 'B', resource: 'vulnerabilities', query: {} })
    const t = await store.save({ name: 'T', resource: 'targets', query: {} })
    await store.setDefault(a.id, true)
    await store.setDefault(t.id, true)
    await store.setDefault(b.id, true)
    expect(store.defaultFor('vulnerabilities')?.id).toBe(b.id)
    expect(store.defaultFor('targets')?.id).toBe(t.id)
    expect(store.byId(a.id)?.isDefault).toBe(false)
    await store.setDefault(b.id, false)
    expect(store.defaultFor('vulnerabilities')).toBeUndefined()
    await store.rename(a.id, 'Renamed')
    await store.remove(t.id)
    expect(store.views.map((v) => v.name)).toEqual(['Renamed', 'B'])
  })

  it('adds an imported file’s views with new ids, one default per list', async () => {
    const store = await ready()
    const mine = await store.save({ name: 'Mine', resource: 'targets', query: {} })
    await store.setDefault(mine.id, true)
    const read = readViewsFile(
      JSON.stringify({
        format: 'scandesk-saved-views',
        version: 1,
        views: [
          { name: 'Theirs', resource: 'targets', query: { tag: 'x' }, isDefault: true },
          { name: 'Crit', resource: 'vulnerabilities', query: {}, isDefault: true },
        ],
      }),
      new Set(['targets', 'vulnerabilities']),
    )
    if (!read.ok) throw new Error(read.error)
    expect(await store.addFromFile(read.file)).toBe(2)
    expect(store.views.map((v) => [v.name, v.isDefault])).toEqual([
      ['Mine', true],
      ['Theirs', false],
      ['Crit', true],
    ])
    expect(new Set(store.views.map((v) => v.id)).size).toBe(3)
  })
})
