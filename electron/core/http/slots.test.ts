import { describe, expect, it } from 'vitest'
import { Slots } from './slots'

const cancelled = () => new Error('cancelled')

describe('slots', () => {
  it('lets `size` holders in at once and the others in order, one per release', async () => {
    const slots = new Slots(2)
    const order: number[] = []
    const releases = await Promise.all([
      slots.take(undefined, cancelled),
      slots.take(undefined, cancelled),
    ])
    const third = slots.take(undefined, cancelled).then((r) => (order.push(3), r))
    const fourth = slots.take(undefined, cancelled).then((r) => (order.push(4), r))
    expect(slots.counts).toEqual({ held: 2, waiting: 2 })
    releases[0]()
    releases[0]() // a second call does nothing
    const r3 = await third
    expect(order).toEqual([3])
    expect(slots.counts).toEqual({ held: 2, waiting: 1 })
    releases[1]()
    const r4 = await fourth
    expect(order).toEqual([3, 4])
    r3()
    r4()
    expect(slots.counts).toEqual({ held: 0, waiting: 0 })
  })

  it('drops a waiter whose signal fires, at once, and the next one gets its place', async () => {
    const slots = new Slots(1)
    const first = await slots.take(undefined, cancelled)
    const stop = new AbortController()
    const waiting = slots.take(stop.signal, cancelled)
    const next = slots.take(undefined, cancelled)
    stop.abort()
    await expect(waiting).rejects.toThrow('cancelled')
    expect(slots.counts).toEqual({ held: 1, waiting: 1 })
    first()
    const release = await next
    release()
    expect(slots.counts).toEqual({ held: 0, waiting: 0 })
  })

  it('refuses a caller already cancelled without taking a place', async () => {
    const slots = new Slots(1)
    await expect(slots.take(AbortSignal.abort(), cancelled)).rejects.toThrow('cancelled')
    expect(slots.counts).toEqual({ held: 0, waiting: 0 })
  })
})
