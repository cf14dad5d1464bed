// Runs composables the way views do: inside a mounted component with Pinia, the data layer and
// Element Plus, against the fake preload; and two accounts to switch between.
import { flushPromises, type ComponentMountingOptions } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { defineComponent, type Component } from 'vue'
import { createMemoryHistory, createRouter } from 'vue-router'
import ConfirmHost from '@/components/kit/ConfirmHost.vue'
import { resourceByKey, type FormDialogProps, type ResourceKey } from '@/resources'
import { useAccountsStore } from '@/stores/accounts'
import { useAppStore } from '@/stores/app'
import { useFakePerTest } from './fakeApp'
import { installFakeScandesk, type FakeScandesk } from './fakeScandesk'
import { account } from './fixtures'
import { mountWithApp } from './mountApp'

/** A fresh fake preload and Pinia with accounts acct-aaaa (active) and acct-bbbb. */
export function withTwoAccounts(): FakeScandesk {
  const fake = installFakeScandesk()
  setActivePinia(createPinia())
  const list = [account('acct-aaaa'), account('acct-bbbb')]
  fake.handle('accounts.setActive', (p: { accountId: string }) => ({
    accounts: list,
    activeId: p.accountId,
  }))
  fake.handle('api.cancel', () => ({ cancelled: true }))
  useAccountsStore()
  useAppStore()
  fake.emit('accounts.changed', { accounts: list, activeId: 'acct-aaaa' })
  return fake
}

/**
 * `withTwoAccounts` before every test of the file (then `setup`, to answer its calls), and after
 * it the bridge removed and the document emptied; hands back the running test's fake.
 */
export function useTwoAccounts(setup: (fake: FakeScandesk) => void = () => {}): FakeScandesk {
  return useFakePerTest(withTwoAccounts, setup)
}

/** Mounts a component whose setup runs `use` and hands back what it returned. */
export function mountComposable<T>(use: () => T): { result: T; unmount: () => void } {
  let result!: T
  const Host = defineComponent({
    setup() {
      result = use()
      return () => null
    },
  })
  const wrapper = mountWithApp(Host)
  return { result, unmount: () => wrapper.unmount() }
}

/** Switches this window's account the way the switcher does. */
export async function switchAccount(id: string): Promise<void> {
  await useAppStore().switchTo(id)
  await flushPromises()
}

/** The api.call payloads the fake received. */
export function apiCalls(fake: FakeScandesk) {
  return fake.calls
    .filter((c) => c.channel === 'api.call')
    .map((c) => c.payload as { accountId: string; op: string; input?: unknown; requestId?: string })
}

/** A collection answer of api.call with `n` rows named after `prefix`. */
export function listAnswer(prefix: string, n: number, total = n, fromCache = false) {
  return {
    data: {
      data: Array.from({ length: n }, (_, i) => ({
        id: `${prefix}-${i + 1}`,
        type: 'target',
        attributes: { name: `${prefix} ${i + 1}`, address: `192.0.2.${i + 1}` },
      })),
      meta: { pagination: { total_count: total } },
    },
    fetchedAt: '2030-01-01T00:00:00.000Z',
    fromCache,
  }
}

/** A memory router whose every route renders nothing, for components that link or navigate. */
export function catchAllRouter() {
  return createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/:rest(.*)*', name: 'any', component: { render: () => null } }],
  })
}

/**
 * Mounts a screen as the shell hosts it: a memory router (every route renders nothing) and the
 * window's confirmation dialog beside it.
 */
export function mountScreen<C extends Component>(
  component: C,
  options: ComponentMountingOptions<C> = {} as ComponentMountingOptions<C>,
) {
  const plugins = [catchAllRouter(), ...(options.global?.plugins ?? [])]
  mountWithApp(ConfirmHost, { global: { plugins } })
  return mountWithApp(component, { ...options, global: { ...options.global, plugins } })
}

/**
 * Mounts a form dialog of the registry open (as a list's toolbar or a row opens it) for the
 * resource `key`: `props` names the operation and anything else the dialog takes.
 */
export function mountFormDialog(
  dialog: Component,
  key: ResourceKey,
  props: Omit<FormDialogProps, 'resource'> & Record<string, unknown>,
) {
  return mountScreen(dialog, {
    props: { resource: resourceByKey(key)!, modelValue: true, ...props },
  })
}
