import { describe, expect, it } from 'vitest'
import { csvCell, csvFile, toCsv } from './csv'

describe('CSV cells', () => {
  it('quotes commas, quotes and line breaks, doubling inner quotes (RFC 4180)', () => {
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('one\r\ntwo')).toBe('"one\r\ntwo"')
  })

  it('neutralises text a spreadsheet would run as a formula', () => {
    for (const evil of ['=1+1', '+1', '-2', '@SUM(A1)', '\tcmd', '\rcmd']) {
      expect(csvCell(evil).replace(/^"/, '').startsWith("'"), JSON.stringify(evil)).toBe(true)
    }
    expect(csvCell('=A1,B1')).toBe(`"'=A1,B1"`)
    expect(csvCell('a=b')).toBe('a=b')
  })

  it('writes numbers and booleans as they are, and null as an empty cell', () => {
    expect(csvCell(-5)).toBe('-5')
    expect(csvCell(false)).toBe('false')
    expect(csvCell(null)).toBe('')
    expect(csvCell(undefined)).toBe('')
  })
})

describe('CSV files', () => {
  it('has a header row, one line per record in column order, and CRLF line ends', () => {
    const text = toCsv(['id', 'name'], [{ name: 'x, y', id: 'a-1', extra: 1 }, { id: 'a-2' }])
    expect(text).toBe('id,name\r\na-1,"x, y"\r\na-2,\r\n')
  })

  it('takes the id from the row and the rest from its attributes, with its byte size', () => {
    const file = csvFile(
      'o.csv',
      ['id', 'name'],
      [{ id: 'org-001', type: 'organization', attributes: { name: 'Zürich AG', id: 'spoof' } }],
    )
    expect(file.contentType).toBe('text/csv; charset=utf-8')
    expect(file.body.toString()).toBe('id,name\r\norg-001,Zürich AG\r\n')
    expect(file.size).toBe(Buffer.byteLength('id,name\r\norg-001,Zürich AG\r\n'))
  })
})
