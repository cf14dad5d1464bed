import { describe, expect, it } from 'vitest'
import { CoreEvents } from '../events'
import { CancelRegistry } from '../http/cancel'
import { Connectivity } from './connectivity'

describe('tracking connectivity', () => {
  it('announces only changes, per account', () => {
    const events = new CoreEvents()
    const seen: [string, boolean][] = []
    events.on('connectivity', (c) => seen.push([c.accountId, c.online]))
    const c = new Connectivity(events)
    c.report('a', true)
    c.report('a', false)
    c.report('a', false)
    c.report('b', false)
    c.report('a', true)
    expect(seen).toEqual([
      ['a', false],
      ['b', false],
      ['a', true],
    ])
    expect(c.isOffline('b')).toBe(true)
  })
})

describe('cancelling by request id', () => {
  it('aborts the registered call once and forgets finished ones', () => {
    const r = new CancelRegistry()
    const s1 = r.start('req-1')
    const s2 = r.start('req-2')
    r.finish('req-2', s2)
    expect(r.cancel('req-2')).toBe(false)
    expect(r.cancel('req-1')).toBe(true)
    expect(s1.aborted).toBe(true)
    expect(r.cancel('req-1')).toBe(false)
    expect(r.size).toBe(0)
  })
})
