import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import { Fail } from '@/test/fakeScandesk'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import { BACKGROUND_AT_ONCE, backgroundReads } from './backgroundReads'
import { useScanHistories, type ScanHistories } from './useScanHistories'

const SCANS = ['scn-1', 'scn-2', 'scn-3', 'scn-4', 'scn-5']

// Each scans.history waits until the test answers it (or fails it), by scan id.
let waiting: Map<string, { answer: () => void; fail: () => void }>
const fake = useFakeApp({
  setup: (fake) => {
    waiting = new Map()
    fake.handle(
      'api.call',
      (p: { input: { path: { id: string } } }) =>
        new Promise((resolve) => {
          const id = p.input.path.id
          waiting.set(id, {
            answer: () => {
              waiting.delete(id)
              resolve({
                data: { data: [{ id: `${id}-run`, type: 'scan_run', attributes: {} }] },
                fetchedAt: '2030-01-01T00:00:00Z',
                fromCache: false,
              })
            },
            fail: () => {
              waiting.delete(id)
              resolve(new Fail({ code: 'SERVER', message: 'The service failed.' }))
            },
          })
        }),
    )
    fake.handle('api.cancel', () => ({ cancelled: true }))
  },
})

let histories: ScanHistories
const Reader = defineComponent({
  setup() {
    histories = useScanHistories(() => SCANS)
    return () => h('div')
  },
})
let unmount: (() => void) | null = null
afterEach(async () => {
  // answer whatever is left, so the window's one limiter is free for the next test
  unmount?.()
  unmount = null
  for (const w of [...waiting.values()]) w.answer()
  await flushPromises()
})

function mountReader(): void {
  const wrapper = mountWithApp(Reader)
  unmount = () => wrapper.unmount()
}
const asked = () =>
  fake.calls
    .filter((c) => c.channel === 'api.call')
    .map((c) => (c.payload as { input: { path: { id: string } } }).input.path.id)
const cancels = () => fake.calls.filter((c) => c.channel === 'api.cancel').length

/** Answers the histories on their way, one round at a time, until none waits. */
async function answerAll(): Promise<void> {
  while (waiting.size) {
    for (const w of [...waiting.values()]) w.answer()
    await flushPromises()
  }
}

describe('the scan histories of many scans (background reads)', () => {
  it('asks at most two at once, the next as one answers, and gives every run', async () => {
    expect(BACKGROUND_AT_ONCE).toBe(2)
    mountReader()
    await flushPromises()
    expect(asked()).toEqual(['scn-1', 'scn-2'])
    expect(backgroundReads.waiting).toBe(3)

    waiting.get('scn-2')!.answer()
    await flushPromises()
    expect(asked()).toEqual(['scn-1', 'scn-2', 'scn-3'])
    expect(waiting.size).toBe(2)

    await answerAll()
    expect(asked()).toHaveLength(5)
    expect(histories.ready.value).toBe(true)
    expect(histories.runs.value.map((r) => r.id)).toEqual(SCANS.map((s) => `${s}-run`))
  })

  it('left before it is done: the histories waiting are never asked, those on their way are cancelled', async () => {
    mountReader()
    await flushPromises()
    expect(asked()).toEqual(['scn-1', 'scn-2'])
    unmount!()
    unmount = null
    await flushPromises()
    expect(cancels()).toBe(2)
    expect(backgroundReads.waiting).toBe(0)
    await answerAll()
    expect(asked()).toEqual(['scn-1', 'scn-2'])
    expect(backgroundReads.running).toBe(0)
  })

  it('left while it refreshes an answer on screen: the refresh stops too', async () => {
    mountReader()
    await flushPromises()
    await answerAll()
    expect(histories.ready.value).toBe(true)

    void histories.retry()
    await flushPromises()
    expect(asked()).toHaveLength(7)
    unmount!()
    unmount = null
    await flushPromises()
    expect(cancels()).toBe(2)
    await answerAll()
    expect(asked()).toHaveLength(7)
  })

  it('one failure fails the read and asks no further history', async () => {
    mountReader()
    await flushPromises()
    waiting.get('scn-1')!.fail()
    await flushPromises()
    expect(histories.error.value?.message).toBe('The service failed.')
    await answerAll()
    expect(asked()).toEqual(['scn-1', 'scn-2'])
    expect(backgroundReads.waiting).toBe(0)
  })
})
