import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatJsonLines, jsonLine, type ListRecord } from './jsonl-text'

const lines = (text: string) => text.split('\n')

describe('JSON Lines as ScanDesk writes it', () => {
  it('writes one object per line, each ended by \\n, the attributes as the service sent them', () => {
    const records: ListRecord[] = [
      {
        id: 'aud-001',
        type: 'audit_event',
        attributes: { action: 'user.sign_in', details: { ip: '10.0.0.1', tries: 2 }, gone: null },
      },
      { id: 'aud-002', attributes: { action: 'scan.create' } },
    ]
    const { text, rows } = formatJsonLines(records)
    expect(rows).toBe(2)
    expect(text.endsWith('\n')).toBe(true)
    expect(lines(text)).toEqual([
      '{"id":"aud-001","type":"audit_event","attributes":{"action":"user.sign_in","details":{"ip":"10.0.0.1","tries":2},"gone":null}}',
      '{"id":"aud-002","attributes":{"action":"scan.create"}}',
      '',
    ])
  })

  it('keeps formula-looking text as it is: JSON Lines is data, not a spreadsheet', () => {
    const line = jsonLine({ id: 'a', attributes: { note: '=HYPERLINK("http://x")', n: '-1+2' } })
    expect(JSON.parse(line)).toEqual({
      id: 'a',
      attributes: { note: '=HYPERLINK("http://x")', n: '-1+2' },
    })
  })

  it('keeps each record on its own line whatever its text holds (line breaks, U+2028/9)', () => {
    const line = jsonLine({
      id: 'x',
      attributes: { a: 'one\ntwo\r\nthree', b: 'para\u2028graph\u2029end\u0085', c: '\u0000\t' },
    })
    expect(line.slice(0, -1)).not.toMatch(/[\n\r\u0085\u2028\u2029]/)
    expect(line).toContain('para\\u2028graph\\u2029end\\u0085')
    expect(JSON.parse(line).attributes).toEqual({
      a: 'one\ntwo\r\nthree',
      b: 'para\u2028graph\u2029end\u0085',
      c: '\u0000\t',
    })
  })

  it('writes an empty list as an empty file', () => {
    expect(formatJsonLines([])).toEqual({ text: '', rows: 0 })
  })

  it('reads back to the same records, one per line, for any attributes', () => {
    const record = fc.record({
      id: fc.string({ minLength: 1, unit: 'binary' }),
      attributes: fc.dictionary(
        fc.string({ unit: 'binary' }),
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.constantFrom('a\u0085b', 'c\u2028d', 'e\u2029f', 'g\r\nh'),
          fc.integer(),
          fc.boolean(),
          fc.constant(null),
          fc.array(fc.string({ unit: 'binary' })),
        ),
      ),
    })
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), (records) => {
        const { text } = formatJsonLines(records)
        const read = lines(text).slice(0, -1)
        expect(read).toHaveLength(records.length)
        // Python's splitlines also splits at U+2028/9 and other separators; none is left raw
        const splitsLines = ['\r', '\u000b', '\u000c', '\u001c', '\u0085', '\u2028', '\u2029']
        expect(splitsLines.filter((c) => text.includes(c))).toEqual([])
        expect(read.map((l) => JSON.parse(l) as unknown)).toEqual(
          records.map((r) => ({ id: r.id, attributes: r.attributes })),
        )
      }),
    )
  })
})
