import { describe, expect, it } from 'vitest'
import { CancelRegistry } from './cancel'

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
