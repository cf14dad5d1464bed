import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { useSavedViewsStore } from '@/stores/savedViews'
import { mountComposable } from '@/test/composables'
import { useFakeApp } from '@/test/fakeApp'
import { serveDrafts } from '@/test/fakeDrafts'
import { savedViewSource } from './localSources'
import { PALETTE_SOURCES } from './sources'
import type { LocalSource } from './types'

useFakeApp({ setup: (f) => void serveDrafts(f, { savedAt: (n) => `2030-01-01T00:00:0${n}Z` }) })

let unmount = () => {}
afterEach(() => unmount())

describe('the palette’s saved views', () => {
  it('offers the account’s views by name, each opening its list as saved', async () => {
    const views = useSavedViewsStore()
    await flushPromises()
    const high = await views.save({
      name: 'High first',
      resource: 'vulnerabilities',
      query: { severity: 'high' },
    })
    await views.save({ name: 'Mail servers', resource: 'targets', query: { search: 'mail' } })
    const host = mountComposable(() => savedViewSource() as LocalSource)
    unmount = host.unmount
    const source = host.result
    expect(source.items('').map((i) => i.label)).toEqual(['High first', 'Mail servers'])
    const [found] = source.items('high')
    expect(found).toMatchObject({ key: high.id, label: 'High first' })
    expect(found.to).toEqual(views.routeOf(high))
    expect(source.items('nothing like it')).toEqual([])
    expect(PALETTE_SOURCES).toContain(savedViewSource)
  })
})
