import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import { backgroundReads } from './backgroundReads'
import { useOperation } from './useOperation'

// Every api.call waits until the test answers it, by operation.
let waiting: Map<string, () => void>
const fake = useFakeApp({
  setup: (fake) => {
    waiting = new Map()
    fake.handle(
      'api.call',
      (p: { op: string }) =>
        new Promise((resolve) =>
          waiting.set(p.op, () => {
            waiting.delete(p.op)
            resolve({ data: { data: [] }, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })
          }),
        ),
    )
    fake.handle('api.cancel', () => ({ cancelled: true }))
  },
})

const BELOW = [
  'vulnerabilities.total_widget',
  'vulnerabilities.top_widget',
  'hosts.most_vulnerable',
] as const
const Panels = defineComponent({
  setup() {
    useOperation('scans.running', {})
    for (const op of BELOW) useOperation(op, {}, { background: true })
    return () => h('div')
  },
})
let unmount: (() => void) | null = null
afterEach(async () => {
  unmount?.()
  unmount = null
  for (const answer of [...waiting.values()]) answer()
  await flushPromises()
})
const asked = () =>
  fake.calls.filter((c) => c.channel === 'api.call').map((c) => (c.payload as { op: string }).op)

describe('background reads of a screen', () => {
  it('wait their turn, two at once, while the first screen’s read goes at once', async () => {
    const wrapper = mountWithApp(Panels)
    unmount = () => wrapper.unmount()
    await flushPromises()
    expect(asked()).toEqual(['scans.running', BELOW[0], BELOW[1]])
    expect(backgroundReads.waiting).toBe(1)

    waiting.get(BELOW[0])!()
    await flushPromises()
    expect(asked()).toEqual(['scans.running', BELOW[0], BELOW[1], BELOW[2]])
  })

  it('left before their turn, they are never asked', async () => {
    const wrapper = mountWithApp(Panels)
    await flushPromises()
    expect(backgroundReads.waiting).toBe(1)
    wrapper.unmount()
    await flushPromises()
    expect(backgroundReads.waiting).toBe(0)
    for (const answer of [...waiting.values()]) answer()
    await flushPromises()
    expect(asked()).not.toContain(BELOW[2])
  })
})
