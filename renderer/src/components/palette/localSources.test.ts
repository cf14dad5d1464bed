import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { useAccountDialogsStore } from '@/stores/accountDialogs'
import { useAccountsStore } from '@/stores/accounts'
import { useAppStore } from '@/stores/app'
import { useRecentRecordsStore } from '@/stores/recentRecords'
import { mountComposable, useTwoAccounts } from '@/test/composables'
import { account } from '@/test/fixtures'
import { actionSource, recentSource, screenSource } from './localSources'
import type { LocalSource, PaletteSourceFactory } from './types'

const mounted: { unmount: () => void }[] = []
afterEach(() => {
  while (mounted.length) mounted.pop()!.unmount()
})

function made(factory: PaletteSourceFactory): LocalSource {
  const host = mountComposable(() => factory() as LocalSource)
  mounted.push(host)
  return host.result
}

const labels = (source: LocalSource, text = '') => source.items(text).map((i) => i.label)

describe('the palette’s own sources', () => {
  const fake = useTwoAccounts((fake) =>
    fake.handle('api.call', () => ({ data: { data: [] }, fetchedAt: '', fromCache: false })),
  )

  it('offers the screens of the account’s release, found by any word of their name', async () => {
    const screens = made(screenSource)
    expect(labels(screens)).toContain('Questionnaires (SAQ)')
    expect(labels(screens, 'port li')).toEqual(['Port lists'])
    expect(labels(screens, 'port')).toEqual(['Port lists'])
    expect(labels(screens, 'ques SAQ')).toEqual(['Questionnaires (SAQ)'])
    // Release 5.3.0 has no SAQ operations: no such screen.
    const accounts = useAccountsStore()
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { release: '5.3.0' }), account('acct-bbbb')],
      activeId: 'acct-aaaa',
    })
    await flushPromises()
    expect(accounts.accounts[0].release).toBe('5.3.0')
    expect(labels(screens)).not.toContain('Questionnaires (SAQ)')
    expect(labels(screens)).toContain('Targets')
  })

  it('offers to work offline, or online again once it is on', async () => {
    const actions = made(actionSource)
    expect(labels(actions, 'work')).toEqual(['Work offline'])
    await actions.items('work offline')[0].run!()
    await flushPromises()
    expect(useAppStore().workOffline).toBe(true)
    expect(labels(actions, 'work')).toEqual(['Work online'])
  })

  it('switches to each other account and adds a user of this one’s service', async () => {
    const actions = made(actionSource)
    expect(labels(actions, 'switch')).toEqual(['Switch to Account acct-bbbb'])
    actions.items('another user')[0].run!()
    expect(useAccountDialogsStore().adding).toEqual({ from: 'acct-aaaa' })
  })

  it('lists the records this account opened, newest first, found by name or kind', async () => {
    const recent = useRecentRecordsStore()
    recent.opened('acct-aaaa', 'targets', 'tgt-1')
    recent.opened('acct-aaaa', 'scans', 'scn-1')
    recent.opened('acct-bbbb', 'targets', 'tgt-9')
    const source = made(recentSource)
    const items = source.items('')
    expect(items.map((i) => [i.key, i.detail])).toEqual([
      ['scans:scn-1', 'Scan'],
      ['targets:tgt-1', 'Target'],
    ])
    expect(items[1].to).toEqual({ name: 'targets-detail', params: { id: 'tgt-1' } })
    expect(source.items('target').map((i) => i.key)).toEqual(['targets:tgt-1'])
  })
})
