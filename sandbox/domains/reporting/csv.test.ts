import { describe, expect, it } from 'vitest'
import { buildCsv, csvCell } from './csv'

describe('the CSV writer', () => {
  it('ends every record with CRLF and quotes only fields that need it', () => {
    const out = buildCsv(
      ['a', 'b'],
      [
        ['plain', 'has,comma'],
        ['say "hi"', 'two\nlines'],
      ],
    )
    expect(out.toString('utf8')).toBe('a,b\r\nplain,"has,comma"\r\n"say ""hi""","two\nlines"\r\n')
  })

  it('neutralises text a spreadsheet would run as a formula', () => {
    for (const evil of ['=HYPERLINK("x")', '+1+1', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'])
      expect(csvCell(evil).replace(/^"/, '').startsWith("'")).toBe(true)
    expect(csvCell('=1,2')).toBe(`"'=1,2"`)
    expect(csvCell(-5)).toBe('-5')
    expect(csvCell('safe text')).toBe('safe text')
  })

  it('writes empty cells for missing values and keeps numbers as they are', () => {
    expect(buildCsv(['x', 'y', 'z'], [[null, undefined, 7.5]]).toString()).toBe(
      'x,y,z\r\n,,7.5\r\n',
    )
  })
})
