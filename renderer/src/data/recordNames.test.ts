import { describe, expect, it } from 'vitest'
import { operationKey } from './keys'
import {
  askedIds,
  batchInput,
  batches,
  nameText,
  reasonOf,
  recordsIn,
  type RecordName,
} from './recordNames'

describe('how a record without a name is said', () => {
  it('never shows a bare id as if it were a name', () => {
    const cases: [RecordName, string][] = [
      [{ state: 'named', name: 'Web shop' }, 'Web shop'],
      [{ state: 'unnamed', reason: 'offline' }, 'tgt-061 (name not available offline)'],
      [{ state: 'unnamed', reason: 'refused' }, 'tgt-061 (name not available: not permitted)'],
      [{ state: 'unnamed', reason: 'release' }, 'tgt-061 (name not available in this release)'],
      [
        { state: 'unnamed', reason: 'missing' },
        'tgt-061 (not found: deleted or not visible to you)',
      ],
      [{ state: 'unnamed', reason: 'blank' }, 'tgt-061 (no name)'],
      [{ state: 'unnamed', reason: 'failed' }, 'tgt-061 (name not available)'],
    ]
    for (const [name, text] of cases) expect(nameText('tgt-061', name)).toBe(text)
    expect(nameText('tgt-061', { state: 'loading' }, 'Target tgt-061')).toBe('Target tgt-061')
  })

  it('reads the reason from the error code of the read', () => {
    expect(reasonOf('OFFLINE')).toBe('offline')
    expect(reasonOf('FORBIDDEN')).toBe('refused')
    expect(reasonOf('NOT_IN_RELEASE')).toBe('release')
    expect(reasonOf('NOT_FOUND')).toBe('missing')
    expect(reasonOf('SERVER')).toBe('failed')
  })
})

describe('batches', () => {
  it('sorts and deduplicates the ids, and asks for as many rows', () => {
    expect(batchInput(['b', 'a', 'b'])).toEqual({ query: { ids: 'a,b', per_page: 2 } })
    expect(batches(['a', 'b', 'c'], 2)).toEqual([['a', 'b'], ['c']])
  })

  it('knows the ids a read asked for from its key', () => {
    const key = (input: unknown) => operationKey('acct', 'targets.list', input)
    expect(askedIds(key({ query: { ids: 'a,b' } }))).toEqual(new Set(['a', 'b']))
    expect(askedIds(key({ query: { page: 1 } }))).toBeNull()
  })

  it('reads the records of a list or of one read, keeping only asked ones when told', () => {
    const list = {
      data: [
        { id: 'a', attributes: { name: ' Alpha ' } },
        { id: 'b', attributes: { name: '' } },
        { id: 'c', attributes: { name: 'Not asked' } },
        { attributes: { name: 'no id' } },
      ],
    }
    expect(recordsIn(list, 'name', new Set(['a', 'b']))).toEqual([
      { id: 'a', name: 'Alpha' },
      { id: 'b', name: '' },
    ])
    expect(recordsIn({ data: { id: 'x', attributes: { ip: '10.0.0.1' } } }, 'ip', null)).toEqual([
      { id: 'x', name: '10.0.0.1' },
    ])
    expect(recordsIn(undefined, 'name', null)).toEqual([])
  })
})
