import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import { useAccountsStore } from '@/stores/accounts'
import { useFakeApp } from '@/test/fakeApp'
import { emptyCache, Fail } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import { click, theTestId } from '@/test/dom'
import SignOutDialog from './SignOutDialog.vue'

let wrapper: ReturnType<typeof mountWithApp> | null = null
let list: AccountView[]

const fake = useFakeApp({
  accounts: () => list,
  setup: (fake) => {
    list = [account('acct-aaaa', { label: 'Customer Acme' }), account('acct-bbbb')]
    fake.handle('cache.status', (p: { accountId: string }) => ({
      ...emptyCache(p.accountId),
      entries: 12,
    }))
    fake.handle('accounts.signOut', (p: { accountId: string }) => {
      list = list.map((a) => (a.id === p.accountId ? { ...a, signedIn: false } : a))
      return list.find((a) => a.id === p.accountId)
    })
  },
})
afterEach(() => {
  wrapper?.unmount()
  wrapper = null
})

async function open() {
  wrapper = mountWithApp(SignOutDialog, { props: { accountId: 'acct-aaaa', modelValue: true } })
  await flushPromises()
}

const signOuts = () => fake.calls.filter((c) => c.channel === 'accounts.signOut')

describe('signing out', () => {
  it('offers to remove the offline copy, naming how much main keeps, and keeps it by default', async () => {
    await open()
    expect(theTestId('sign-out-dialog').textContent).toContain('Sign out of Customer Acme')
    expect(theTestId('sign-out-clear-copy').textContent).toContain(
      'Also remove this account’s offline copy (12 answers on this computer) and its run snapshots',
    )
    await click('sign-out-submit')
    expect(signOuts().map((c) => c.payload)).toEqual([
      { accountId: 'acct-aaaa', clearOfflineCopy: false },
    ])
    expect(useAccountsStore().accounts.find((a) => a.id === 'acct-aaaa')?.signedIn).toBe(false)
    expect(wrapper?.emitted('update:modelValue')?.at(-1)).toEqual([false])
  })

  it('asks main to remove the copy when the choice is ticked', async () => {
    await open()
    theTestId('sign-out-clear-copy').querySelector('input')!.click()
    await flushPromises()
    await click('sign-out-submit')
    expect(signOuts().map((c) => c.payload)).toEqual([
      { accountId: 'acct-aaaa', clearOfflineCopy: true },
    ])
  })

  it('stays open with main’s words when the sign-out is refused', async () => {
    fake.handle('accounts.signOut', () => new Fail({ code: 'INTERNAL', message: 'It broke.' }))
    await open()
    await click('sign-out-submit')
    expect(theTestId('sign-out-dialog').textContent).toContain('It broke.')
    expect(wrapper?.emitted('update:modelValue')).toBeUndefined()
  })
})
