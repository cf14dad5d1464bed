import { describe, expect, it } from 'vitest'
import { SandboxHttpError } from '../types'
import { createDb } from './db'
import { createRng } from './rng'

describe('the sandbox store', () => {
  it('numbers ids per prefix, zero-padded to three digits and growing beyond 999', () => {
    const db = createDb()
    expect(db.nextId('tgt')).toBe('tgt-001')
    expect(db.nextId('tgt')).toBe('tgt-002')
    expect(db.nextId('scn')).toBe('scn-001')
    db.state.counters.tgt = 998
    expect(db.nextId('tgt')).toBe('tgt-999')
    expect(db.nextId('tgt')).toBe('tgt-1000')
  })

  it('never hands out an id marked as used, and never moves a counter back', () => {
    const db = createDb()
    db.nextId('exc')
    db.reserveId('exc-007')
    db.reserveId('exc-003')
    db.reserveId('not an id')
    expect(db.nextId('exc')).toBe('exc-008')
    db.reserveId('whk-1200')
    expect(db.nextId('whk')).toBe('whk-1201')
  })

  it('merges updates, answers 404 for missing rows and 409 for a duplicate insert', () => {
    const db = createDb()
    db.insert('t', { id: 'a', type: 't', attributes: { x: 1, y: 2 } })
    db.update('t', 'a', { y: 3 }, { secret: 's' })
    expect(db.get('t', 'a')).toEqual({
      id: 'a',
      type: 't',
      attributes: { x: 1, y: 3 },
      internal: { secret: 's' },
    })
    expect(() => db.require('t', 'b')).toThrow(SandboxHttpError)
    expect(() => db.update('t', 'b', {})).toThrow(expect.objectContaining({ status: 404 }))
    expect(() => db.insert('t', { id: 'a', type: 't', attributes: {} })).toThrow(
      expect.objectContaining({ status: 409 }),
    )
    expect(db.get('t', 'toString')).toBeUndefined()
    expect(db.remove('t', 'a')).toBe(true)
    expect(db.remove('t', 'a')).toBe(false)
    expect(db.list('t')).toEqual([])
  })

  it('lists rows in insertion order through inserts, removals and a replaced state', () => {
    const db = createDb()
    const ids = () => db.list('t').map((r) => r.id)
    for (const id of ['a', 'b', 'c']) db.insert('t', { id, type: 't', attributes: {} })
    expect(ids()).toEqual(['a', 'b', 'c'])
    db.list('t').reverse() // a caller's copy: the store's order stays
    db.insert('t', { id: 'd', type: 't', attributes: {} })
    db.update('t', 'a', { x: 1 })
    expect(ids()).toEqual(['a', 'b', 'c', 'd'])
    expect(db.list('t')[0].attributes).toEqual({ x: 1 })
    db.remove('t', 'b')
    db.insert('t', { id: 'b', type: 't', attributes: {} })
    expect(ids()).toEqual(['a', 'c', 'd', 'b'])
    db.replace({ collections: { t: { z: { id: 'z', type: 't', attributes: {} } } }, counters: {} })
    expect(ids()).toEqual(['z'])
  })

  it('marks itself dirty on writes only', () => {
    const db = createDb()
    db.insert('t', { id: 'a', type: 't', attributes: {} })
    db.clearDirty()
    db.list('t')
    db.get('t', 'a')
    expect(db.dirty).toBe(false)
    db.update('t', 'a', { z: 1 })
    expect(db.dirty).toBe(true)
  })
})

describe('the seeded random source', () => {
  it('repeats its sequence for a seed and stays within bounds', () => {
    const a = createRng(42)
    const b = createRng(42)
    const seqA = Array.from({ length: 50 }, () => a.int(3, 7))
    expect(Array.from({ length: 50 }, () => b.int(3, 7))).toEqual(seqA)
    expect(new Set(seqA)).toEqual(new Set([3, 4, 5, 6, 7]))
    const c = createRng(43)
    expect(Array.from({ length: 50 }, () => c.int(3, 7))).not.toEqual(seqA)
    expect(createRng(1).pick(['only'])).toBe('only')
  })
})
