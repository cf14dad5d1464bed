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
    expect(await store.addFromFile(read.file)).toEqual({ done: 'Imported 2 views.' })
    expect(store.views.map((v) => [v.name, v.isDefault])).toEqual([
      ['Mine', true],
      ['Theirs', false],
      ['Crit', true],
    ])
    expect(new Set(store.views.map((v) => v.id)).size).toBe(3)
  })

  const fileOf = (views: object[]) => {
    const read = readViewsFile(
      JSON.stringify({ format: 'scandesk-saved-views', version: 1, views }),
      new Set(['targets', 'vulnerabilities']),
    )
    if (!read.ok) throw new Error(read.error)
    return read.file
  }
  const many = (n: number, prefix = 'View') =>
    Array.from({ length: n }, (_, i) => ({
      name: `${prefix} ${i + 1}`,
      resource: 'targets',
      query: { tag: `t${i}` },
      isDefault: false,
    }))

  it('imports the same file twice without doubling a view; a taken name keeps both', async () => {
    const store = await ready()
    await store.save({ name: 'Edge', resource: 'targets', query: { tag: 'mine' } })
    const file = fileOf([...many(3), { name: 'Edge', resource: 'targets', query: { tag: 'dmz' } }])
    expect(await store.addFromFile(file)).toEqual({
      done: 'Imported 4 views; 1 renamed because the name was taken (“Edge (2)”).',
    })
    expect(await store.addFromFile(file)).toEqual({
      done: 'Imported 0 views; 4 were saved already.',
    })
    expect(store.views.map((v) => v.name)).toEqual([
      'Edge',
      'View 1',
      'View 2',
      'View 3',
      'Edge (2)',
    ])
  })

  it('refuses an import past 500 views whole, and keeps every view saved before', async () => {
    const store = await ready()
    expect(await store.addFromFile(fileOf(many(300, 'A')))).toEqual({ done: 'Imported 300 views.' })
    const before = JSON.stringify(stored['acct-aaaa'].data)
    expect(await store.addFromFile(fileOf(many(300, 'B')))).toEqual({
      error:
        'Nothing was imported: this file would add 300 views to the 300 saved, and ScanDesk keeps at most 500. Remove 100 views first, or import a smaller file.',
    })
    expect(store.views).toHaveLength(300)
    expect(JSON.stringify(stored['acct-aaaa'].data)).toBe(before)
  })

  it('reads a stored document view by view: an older name is repaired, an unreadable view is counted, 600 stay listed', async () => {
    const view = (i: number, over: object = {}) => ({
      id: `view-${i}`,
      name: `V${i}`,
      resource: 'targets',
      query: {},
      isDefault: false,
      ...over,
    })
    stored['acct-aaaa'] = {
      data: {
        views: [
          view(1, { name: '\u202Egnp.exe\u200F\u0000' }),
          view(2, { resource: 'Not a list!' }),
          view(1), // an id stored twice
          ...Array.from({ length: 597 }, (_, i) => view(i + 3)),
        ],
      },
      savedAt: '2030-01-01T00:00:00Z',
      kept: 'disk',
    }
    const store = await ready()
    expect(store.views).toHaveLength(599)
    expect(store.views[0].name).toBe('gnp.exe')
    expect(new Set(store.views.map((v) => v.id)).size).toBe(599)
    expect(store.unreadable).toBe(1)
  })
})
