import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { RemovalPlan } from '@contract/sessions'
import { useAccountsStore } from '@/stores/accounts'
import { useFakeApp } from '@/test/fakeApp'
import { account } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import RemoveAccountDialog from './RemoveAccountDialog.vue'
import { click, theTestId, typeInto } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'

let wrapper: ReturnType<typeof mountWithApp> | null = null
let list: AccountView[]

const plan: RemovalPlan = {
  accountId: 'acct-aaaa',
  label: 'Customer Acme',
  keychainEntries: 3,
  exportJobs: 2,
  ledgerEntries: 5,
  cachedRecords: 1,
  drafts: 3,
  draftsByKind: { saq: 2, 'scan-wizard': 1, 'saved-views': 0, dialog: 0 },
  outboxItems: 4,
  runSnapshots: 6,
  savedViews: 1,
  bulkRuns: 2,
  dailyTotals: 12,
  filesKept: 5,
}

const fake = useFakeApp({
  accounts: () => list,
  setup: (fake) => {
    list = [account('acct-aaaa', { label: 'Customer Acme' }), account('acct-bbbb')]
    fake.handle('accounts.removalPlan', () => plan)
    fake.handle('accounts.list', () => ({ accounts: list, activeId: list[0]?.id ?? null }))
    fake.handle('accounts.remove', (p: { accountId: string }) => {
      list = list.filter((a) => a.id !== p.accountId)
      return { removed: true }
    })
  },
})
afterEach(() => {
  wrapper?.unmount()
  wrapper = null
})

async function open() {
  wrapper = mountWithApp(RemoveAccountDialog, {
    props: { accountId: 'acct-aaaa', modelValue: true },
  })
  await flushPromises()
}

const submit = () => theTestId<HTMLButtonElement>('remove-account-submit')

describe('removing an account', () => {
  it('says exactly what goes and what stays, from main’s plan', async () => {
    await open()
    expect(fake.calls.find((c) => c.channel === 'accounts.removalPlan')?.payload).toEqual({
      accountId: 'acct-aaaa',
    })
    expect(theTestId('remove-account-plan').textContent?.trim()).toBe(
      '3 keychain entries, 2 export jobs, 5 records of downloaded files, ' +
        '1 answer of the offline copy, 2 SAQ drafts, 1 scan wizard draft, ' +
        '4 changes waiting to be sent, 6 run snapshots, 1 saved view, 2 bulk runs, ' +
        '12 days of recorded finding totals; 5 downloaded files stay on disk.',
    )
  })

  it('names the saved views without a number when main could not open them', async () => {
    fake.handle('accounts.removalPlan', () => ({
      ...plan,
      keychainEntries: 0,
      exportJobs: 0,
      ledgerEntries: 0,
      cachedRecords: 0,
      draftsByKind: { saq: 0, 'scan-wizard': 0, 'saved-views': 1 },
      outboxItems: 0,
      runSnapshots: 0,
      savedViews: null,
      bulkRuns: 0,
      dailyTotals: 0,
    }))
    await open()
    expect(theTestId('remove-account-plan').textContent?.trim()).toBe(
      'its saved views; 5 downloaded files stay on disk.',
    )
  })

  it('removes only after the label is typed exactly', async () => {
    await open()
    expect(submit().disabled).toBe(true)
    await typeInto('remove-account-confirm-input', 'customer acme')
    expect(submit().disabled).toBe(true)
    await click('remove-account-submit')
    expect(fake.calls.some((c) => c.channel === 'accounts.remove')).toBe(false)
    await typeInto('remove-account-confirm-input', 'Customer Acme')
    expect(submit().disabled).toBe(false)
    await click('remove-account-submit')
    expect(fake.calls.find((c) => c.channel === 'accounts.remove')?.payload).toEqual({
      accountId: 'acct-aaaa',
    })
    expect(useAccountsStore().accounts.map((a) => a.id)).toEqual(['acct-bbbb'])
    expect(wrapper?.emitted('update:modelValue')?.at(-1)).toEqual([false])
  })

  it('closes and says so when the account went but the keychain could not be reached', async () => {
    fake.handle('accounts.remove', (p: { accountId: string }) => {
      list = list.filter((a) => a.id !== p.accountId)
      return new Fail({
        code: 'KEYCHAIN_UNAVAILABLE',
        message:
          'The system keychain could not be reached; ScanDesk deletes its entries at the next start.',
      })
    })
    await open()
    await typeInto('remove-account-confirm-input', 'Customer Acme')
    await click('remove-account-submit')
    expect(useAccountsStore().accounts.map((a) => a.id)).toEqual(['acct-bbbb'])
    expect(wrapper?.emitted('update:modelValue')?.at(-1)).toEqual([false])
    expect(document.body.textContent).toContain(
      'Removed Customer Acme from ScanDesk. The system keychain could not be reached',
    )
  })
})
