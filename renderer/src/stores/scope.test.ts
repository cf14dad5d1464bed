import { defineStore } from 'pinia'
import { ref } from 'vue'
import { describe, expect, it } from 'vitest'
import { useFakeApp } from '@/test/fakeApp'
import { deferred } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { useAccountsStore } from './accounts'
import { operationInRelease, useAccountScope, useReleaseGuard } from './scope'

const both = () => [account('acct-aaaa'), account('acct-bbbb', { release: '5.0.0-beta1' })]

// A store of the kind the scope is for: one value per account, loaded by a slow request.
const useNotesStore = defineStore('notes', () => {
  const notes = ref<string[]>([])
  const resets: (string | null)[] = []
  const scope = useAccountScope((next) => {
    resets.push(next)
    notes.value = []
  })
  async function load(answer: Promise<string[]>): Promise<boolean> {
    const got = await scope.run(() => answer)
    if (got) notes.value = got.value
    return got !== null
  }
  return { notes, resets, load, scope }
})

const fake = useFakeApp({ accounts: both, switchable: true })

describe('an account-bound store', () => {
  it('drops the answer of a request for A that arrives after the switch to B', async () => {
    const accounts = useAccountsStore()
    const store = useNotesStore()
    const slowA = deferred<string[]>()
    const forA = store.load(slowA.promise)
    await accounts.setActive('acct-bbbb')
    await store.load(Promise.resolve(['B note']))
    slowA.resolve(['A secret note'])
    expect(await forA).toBe(false)
    expect(store.notes).toEqual(['B note'])
  })

  it('empties its state the moment the account changes', () => {
    const accounts = useAccountsStore()
    const store = useNotesStore()
    store.notes = ['A note']
    fake.emit('accounts.changed', { accounts: both(), activeId: 'acct-bbbb' })
    expect(store.notes).toEqual([])
    expect(store.resets).toEqual(['acct-bbbb'])
    expect(accounts.activeId).toBe('acct-bbbb')
  })

  it('keeps answers that arrive while the account stays the same', async () => {
    const store = useNotesStore()
    expect(await store.load(Promise.resolve(['A note']))).toBe(true)
    expect(store.notes).toEqual(['A note'])
    expect(store.resets).toEqual([])
  })

  it('does not take a ticket without an account', () => {
    fake.emit('accounts.changed', { accounts: [], activeId: null })
    const store = useNotesStore()
    expect(store.scope.begin()).toBeNull()
  })
})

describe('the release guard', () => {
  it('offers only the operations of the active account’s release and follows switches', async () => {
    const accounts = useAccountsStore()
    const guard = useReleaseGuard()
    expect(guard.release.value).toBe('latest')
    expect(guard.has('advanced_reports.list')).toBe(true)
    await accounts.setActive('acct-bbbb')
    expect(guard.release.value).toBe('5.0.0-beta1')
    expect(guard.has('advanced_reports.list')).toBe(false)
    expect(guard.has('scans.list')).toBe(true)
  })

  it('refuses unknown operation ids and allows every known one when no release is known', () => {
    expect(operationInRelease('scans.nope', 'latest')).toBe(false)
    expect(operationInRelease('advanced_reports.list', null)).toBe(true)
  })
})
