// A test file's window: a fresh fake preload and Pinia before every test, main's list of accounts
// pushed to the stores, and the teardown after it. Call at the top of a test file (or a describe).
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach } from 'vitest'
import type { AccountView } from '@contract/accounts'
import { useAccountsStore } from '@/stores/accounts'
import { useAppStore } from '@/stores/app'
import { installFakeScandesk, type FakeScandesk } from './fakeScandesk'
import { account } from './fixtures'

export interface FakeAppOptions {
  /** The accounts main reports (asked again for every answer); one acct-aaaa by default. */
  accounts?: () => AccountView[]
  /** The active account of the first accounts.changed; the first account by default. */
  activeId?: string
  /** Answer accounts.setActive with the same accounts and the asked account active. */
  switchable?: boolean
  /** The store that follows accounts.changed: the accounts store (default) or the app store. */
  store?: 'accounts' | 'app'
  /** More fake answers, set up before the accounts are pushed. */
  setup?: (fake: FakeScandesk) => void
}

/** The fake of the running test, plus `activate` to push the accounts with another one active. */
export interface FakeApp extends FakeScandesk {
  activate(activeId: string): void
}

/** The accounts of most tests: acct-aaaa and acct-bbbb. */
export const twoAccounts = (): AccountView[] => [account('acct-aaaa'), account('acct-bbbb')]

/** A fake that stands for whichever fake `current` returns when it is used. */
function following(current: () => FakeScandesk): FakeScandesk {
  return {
    get bridge() {
      return current().bridge
    },
    get calls() {
      return current().calls
    },
    handle: (channel, handler) => current().handle(channel, handler),
    emit: (event, payload) => current().emit(event, payload),
    listenerCount: (event) => current().listenerCount(event),
  }
}

/**
 * The fake `install` makes before every test of the file (then `setup`, which may already use the
 * fake handed back), and after it the bridge removed and the document emptied; hands back the
 * running test's fake.
 */
export function useFakePerTest(
  install: () => FakeScandesk,
  setup: (fake: FakeScandesk) => void = () => {},
): FakeScandesk {
  let fake: FakeScandesk | null = null
  beforeEach(() => {
    fake = install()
    setup(fake)
  })
  afterEach(() => {
    fake = null
    delete window.scandesk
    document.body.innerHTML = ''
  })
  return following(() => {
    if (!fake) throw new Error('the fake bridge is only there while a test runs')
    return fake
  })
}

/** A fresh fake preload and Pinia before every test (then `setup`), cleared after it. */
export function useFakeBridge(setup: (fake: FakeScandesk) => void = () => {}): FakeScandesk {
  return useFakePerTest(() => {
    const fake = installFakeScandesk()
    setActivePinia(createPinia())
    return fake
  }, setup)
}

/**
 * `useFakeBridge` with main's accounts pushed (accounts.changed) to the accounts or app store
 * before every test.
 */
export function useFakeApp(options: FakeAppOptions = {}): FakeApp {
  const accounts = options.accounts ?? (() => [account('acct-aaaa')])
  const push = (fake: FakeScandesk, activeId: string) =>
    fake.emit('accounts.changed', { accounts: accounts(), activeId })
  const fake = useFakeBridge((fake) => {
    if (options.switchable)
      fake.handle('accounts.setActive', (p: { accountId: string }) => ({
        accounts: accounts(),
        activeId: p.accountId,
      }))
    options.setup?.(fake)
    if (options.store === 'app') useAppStore()
    else useAccountsStore()
    push(fake, options.activeId ?? accounts()[0].id)
  })
  return Object.assign(fake, { activate: (activeId: string) => push(fake, activeId) })
}
