import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import {
  apiCalls,
  listAnswer,
  mountComposable,
  switchAccount,
  useTwoAccounts,
} from '@/test/composables'
import { deferred, Fail } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import { useOperation } from './useOperation'

const fake = useTwoAccounts()

describe('reading an operation', () => {
  it('asks for this window’s account and exposes the answer with its freshness', async () => {
    fake.handle('api.call', () => listAnswer('A', 2, 2, true))
    const { result } = mountComposable(() => useOperation('targets.list', { query: { page: 1 } }))
    await flushPromises()
    expect(apiCalls(fake)[0]).toMatchObject({
      accountId: 'acct-aaaa',
      op: 'targets.list',
      input: { query: { page: 1 } },
    })
    expect(result.data.value?.data.map((r) => r.id)).toEqual(['A-1', 'A-2'])
    expect(result.fromCache.value).toBe(true)
    expect(result.fetchedAt.value).toBe('2030-01-01T00:00:00.000Z')
  })

  it('shares one request between views asking the same thing', async () => {
    const answer = deferred<unknown>()
    fake.handle('api.call', () => answer.promise)
    const one = mountComposable(() => useOperation('targets.list', { query: { search: '' } }))
    const two = mountComposable(() => useOperation('targets.list', {}))
    answer.resolve(listAnswer('A', 1))
    await flushPromises()
    expect(apiCalls(fake)).toHaveLength(1)
    expect(two.result.data.value?.data).toHaveLength(1)
    expect(one.result.data.value?.data).toHaveLength(1)
  })

  it('asks as the screen is set up, before its children are built', async () => {
    fake.handle('api.call', () => listAnswer('A', 1))
    let askedBeforeChild = -1
    const Child = () => {
      askedBeforeChild = apiCalls(fake).length
      return null
    }
    const Screen = defineComponent({
      setup() {
        useOperation('targets.list', { query: { page: 1 } })
        return () => h(Child)
      },
    })
    mountWithApp(Screen)
    await flushPromises()
    expect(askedBeforeChild).toBe(1)
    expect(apiCalls(fake)).toHaveLength(1)
  })

  it('never shows a late answer of the previous account after a switch', async () => {
    const answers = new Map([
      ['acct-aaaa', deferred<unknown>()],
      ['acct-bbbb', deferred<unknown>()],
    ])
    fake.handle('api.call', (p: { accountId: string }) => answers.get(p.accountId)!.promise)
    const { result } = mountComposable(() => useOperation('targets.list', {}))
    await flushPromises()
    await switchAccount('acct-bbbb')
    answers.get('acct-aaaa')!.resolve(listAnswer('A', 3))
    await flushPromises()
    expect(result.data.value).toBeUndefined()
    answers.get('acct-bbbb')!.resolve(listAnswer('B', 1))
    await flushPromises()
    expect(result.data.value?.data.map((r) => r.id)).toEqual(['B-1'])
  })

  it('cancels a request in main when the input changed before it answered', async () => {
    const held = deferred<unknown>()
    fake.handle('api.call', (p: { input: { query: { page: number } } }) =>
      p.input.query.page === 1 ? held.promise : listAnswer('P2', 1),
    )
    const page = ref(1)
    const { result } = mountComposable(() =>
      useOperation('targets.list', () => ({ query: { page: page.value } })),
    )
    await flushPromises()
    const first = apiCalls(fake)[0]
    page.value = 2
    await flushPromises()
    const cancels = fake.calls.filter((c) => c.channel === 'api.cancel')
    expect(cancels.map((c) => (c.payload as { requestId: string }).requestId)).toContain(
      first.requestId,
    )
    held.resolve(listAnswer('P1', 5))
    await flushPromises()
    expect(result.data.value?.data.map((r) => r.id)).toEqual(['P2-1'])
  })

  it('shows the service’s message and asks again on retry', async () => {
    let n = 0
    fake.handle('api.call', () =>
      ++n === 1
        ? new Fail({ code: 'SERVER', status: 503, message: 'The service is unavailable.' })
        : listAnswer('A', 1),
    )
    const { result } = mountComposable(() => useOperation('targets.list', {}))
    await flushPromises()
    expect(result.error.value?.message).toBe('The service is unavailable.')
    expect(result.data.value).toBeUndefined()
    await result.retry()
    await flushPromises()
    expect(result.error.value).toBeNull()
    expect(result.data.value?.data).toHaveLength(1)
  })

  it('asks nothing for an operation the account’s release lacks', async () => {
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { release: '5.0.0-beta1' })],
      activeId: 'acct-aaaa',
    })
    fake.handle('api.call', () => listAnswer('A', 1))
    const { result } = mountComposable(() => useOperation('white_label.show'))
    await flushPromises()
    expect(result.available.value).toBe(false)
    expect(apiCalls(fake)).toHaveLength(0)
  })

  it('holds a read back while its input is null', async () => {
    fake.handle('api.call', () => listAnswer('A', 1))
    const id = ref<string | null>(null)
    mountComposable(() =>
      useOperation('targets.show', () => (id.value ? { path: { id: id.value } } : null)),
    )
    await flushPromises()
    expect(apiCalls(fake)).toHaveLength(0)
    id.value = 'tgt-001'
    await flushPromises()
    expect(apiCalls(fake)[0]).toMatchObject({
      op: 'targets.show',
      input: { path: { id: 'tgt-001' } },
    })
  })
})

describe('the loading flag', () => {
  it('is off in the very draw that shows the answer: a page of rows is drawn once, not twice', async () => {
    const answers = [deferred<unknown>(), deferred<unknown>()]
    let asked = 0
    fake.handle('api.call', () => answers[asked++].promise)
    const page = ref(1)
    const draws: string[] = []
    const Screen = defineComponent({
      setup() {
        const read = useOperation('targets.list', () => ({ query: { page: page.value } }), {
          keepPrevious: true,
        })
        return () => {
          draws.push(
            `${read.data.value?.data.map((r) => r.id).join() ?? '-'}${read.loading.value ? ' loading' : ''}`,
          )
          return h('div')
        }
      },
    })
    mountWithApp(Screen)
    await flushPromises()
    answers[0].resolve(listAnswer('A', 1))
    await flushPromises()
    page.value = 2
    await flushPromises()
    answers[1].resolve(listAnswer('B', 1))
    await flushPromises()
    // the rows come with the flag off; never the new rows under the loading flag
    expect(draws).toEqual(['- loading', 'A-1', 'A-1 loading', 'B-1'])
  })
})
