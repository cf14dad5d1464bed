import { useQueryCache } from '@pinia/colada'
import { flushPromises } from '@vue/test-utils'
// The test runs in Node (happy-dom); a full collection is how it sees what is still retained.
// eslint-disable-next-line no-restricted-imports
import { setFlagsFromString } from 'node:v8'
// eslint-disable-next-line no-restricted-imports
import { runInNewContext } from 'node:vm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, getCurrentInstance, h } from 'vue'
import { listAnswer, withTwoAccounts } from '@/test/composables'
import type { FakeScandesk } from '@/test/fakeScandesk'
import { mountWithApp } from '@/test/mountApp'
import { operationKey } from './keys'
import { useOperation } from './useOperation'
import { useScanHistories } from './useScanHistories'

// The cache keeps an entry nobody reads any more for 5 minutes (its gcTime), with the options
// it was last asked with. A screen whose read has a key of its own on each visit (the dashboard's
// overdue counts: "now" is in the key) must not be kept alive by them: that kept every visited
// dashboard, its DOM and its charts, for 5 minutes (issue 22).
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

let fake: FakeScandesk
beforeEach(() => {
  fake = withTwoAccounts()
  // A page of targets is named after its page, a scan's runs after the scan.
  fake.handle('api.call', (p: { input: { path?: { id: string }; query: { page?: number } } }) =>
    listAnswer(p.input.path?.id ?? `P${p.input.query.page}`, 1),
  )
})
afterEach(() => {
  delete window.scandesk
})

/** Mounts a screen whose `read` has a key of its own, waits for its rows, leaves it. */
async function visit(read: () => () => string, shown: string): Promise<WeakRef<object>> {
  let instance: object | null = null
  const Screen = defineComponent({
    setup() {
      instance = getCurrentInstance()
      const text = read()
      return () => h('p', text())
    },
  })
  const wrapper = mountWithApp(Screen)
  await flushPromises()
  expect(wrapper.text()).toBe(shown)
  wrapper.unmount()
  return new WeakRef(instance!)
}

/** A screen reading page `page` of the targets. */
const targetsPage = (page: number) =>
  visit(() => {
    const read = useOperation('targets.list', { query: { page } })
    return () => read.data.value?.data.map((r) => r.id).join(',') ?? ''
  }, `P${page}-1`)

/** A screen reading the runs of scan `id`. */
const runsOf = (id: string) =>
  visit(() => {
    const read = useScanHistories([id])
    return () => read.runs.value.map((r) => r.id).join(',')
  }, `${id}-1`)

/** Collects what is no longer reachable (after the task, as WeakRefs hold during their own). */
async function collect(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0))
  gc()
}

// The first and the last test apps stay referenced in development builds (the cache's store and
// Pinia hold them, and Vue's hot reload holds an app's root): the screens between are checked.
describe('a read whose screen was left', () => {
  it('keeps its answer in the cache but not the screen', async () => {
    await targetsPage(0)
    const first = await targetsPage(1)
    const second = await targetsPage(2)
    await targetsPage(3)
    await collect()
    const cache = useQueryCache()
    // The entries are still there, collected later (the answer is shown again at once)…
    for (const page of [1, 2])
      expect(
        cache.get(operationKey('acct-aaaa', 'targets.list', { query: { page } }))?.state.value,
      ).toMatchObject({ status: 'success' })
    // …but the screens that read them are gone.
    expect(first.deref()).toBeUndefined()
    expect(second.deref()).toBeUndefined()
  })

  it('keeps no screen that read scan runs either', async () => {
    await runsOf('scan-0')
    const first = await runsOf('scan-1')
    const second = await runsOf('scan-2')
    await runsOf('scan-3')
    await collect()
    expect(first.deref()).toBeUndefined()
    expect(second.deref()).toBeUndefined()
  })
})
