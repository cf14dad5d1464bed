import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { escapeFormula, formatCsv, looksLikeFormula } from '@contract/csv'
import { AppFailure } from '@contract/errors'
import { escapeCsvAnswer } from './csv-text'

const CSV = 'text/csv; charset=utf-8'
const bytes = (text: string) => Buffer.from(text, 'utf8')
const cells = (text: string) => Papa.parse<string[]>(text, { skipEmptyLines: true }).data

function refusal(text: string | Buffer, type: string | null = CSV): string {
  try {
    escapeCsvAnswer(typeof text === 'string' ? bytes(text) : text, type)
  } catch (err) {
    expect(err).toBeInstanceOf(AppFailure)
    expect((err as AppFailure).error.code).toBe('BAD_RESPONSE')
    return (err as AppFailure).error.message
  }
  throw new Error('expected a refusal')
}

describe('escaping formula-looking cells', () => {
  it('prefixes = + - @ tab and CR with a quote, and nothing else', () => {
    for (const cell of ['=1+1', '+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x")'])
      expect(escapeFormula(cell)).toBe(`'${cell}`)
    for (const cell of ['', 'Acme', 'a=b', "'=already", '-5', '+1.5e3', '-.5', ' Acme', ' -5'])
      expect(escapeFormula(cell)).toBe(cell)
  })

  // What spreadsheets trim before reading a formula differs: Excel, LibreOffice and Google Sheets
  // each pass over some of these, so a cell any of them would run is escaped.
  it('escapes a formula behind white space, invisible characters or a full-width sign', () => {
    const hidden = {
      'a leading space': ' =1+1',
      'a no-break space': '\u00A0=1+1',
      'a narrow no-break space': '\u202F@SUM(A1)',
      'an ideographic space': '\u3000+cmd',
      'a zero-width space': '\u200B=1+1',
      'a zero-width joiner': '\u200D=1+1',
      'a word joiner': '\u2060-2+3',
      'a byte order mark': '\uFEFF=1+1',
      'a leading newline': '\n=1+1',
      'a line separator': '\u2028=1+1',
      'two kinds at once': ' \u200B\u00A0=1+1',
      'the full-width equals sign': '\uFF1D1+1',
      'the full-width plus sign': '\uFF0Bcmd',
      'the full-width commercial at': '\uFF20SUM(A1)',
      'the small equals sign': '\uFE661+1',
    }
    for (const [what, cell] of Object.entries(hidden)) {
      expect(looksLikeFormula(cell), what).toBe(true)
      expect(escapeFormula(cell), what).toBe(`'${cell}`)
    }
  })

  it('removes bidirectional controls from every cell, then judges what is left', () => {
    expect(escapeFormula('\u202E=1+1')).toBe("'=1+1")
    expect(escapeFormula('\u202Egnp.exe\u200F')).toBe('gnp.exe')
    expect(escapeFormula('a\u2066b\u2069c\u200Ed\u061C')).toBe('abcd')
    expect(formatCsv([['\u202E=1+1', '\u200Fplain', '\u2067-5']])).toEqual({
      text: '"\'=1+1","plain","-5"\r\n',
      escapedCells: 1,
    })
  })

  it('never escapes a cell twice', () => {
    expect(escapeFormula(escapeFormula('=1+1'))).toBe("'=1+1")
    expect(looksLikeFormula("'=1+1")).toBe(false)
  })
})

/** The cells a spreadsheet whose list separator is `;` reads (quotes are honoured, as RFC 4180). */
const semicolonCells = (text: string) =>
  Papa.parse<string[]>(text, { delimiter: ';', skipEmptyLines: true }).data.flat()

describe('CSV as ScanDesk writes it', () => {
  it('quotes every field and doubles the quotes inside', () => {
    expect(
      formatCsv([
        ['id', 'name'],
        ['1', 'Say "hi", Acme'],
      ]),
    ).toEqual({
      text: '"id","name"\r\n"1","Say ""hi"", Acme"\r\n',
      escapedCells: 0,
    })
    expect(formatCsv([['=1+1', '-5', '']])).toEqual({
      text: '"\'=1+1","-5",""\r\n',
      escapedCells: 1,
    })
  })

  it('gives a semicolon-locale spreadsheet no cell that starts a formula', () => {
    const attack = "Acme;=cmd|' /C calc'!A0"
    const service = `id,name,note\r\norg-1,${attack},"x;@SUM(A1)"\r\n`
    // what a German or French spreadsheet sees in the service's own text: a formula cell
    expect(semicolonCells(service).some(looksLikeFormula)).toBe(true)
    const safe = escapeCsvAnswer(bytes(service), CSV)
    expect(semicolonCells(safe.text).filter(looksLikeFormula)).toEqual([])
    // every line is quoted field after quoted field, and a comma reader still gets the cells back
    for (const line of safe.text.split('\r\n').filter(Boolean))
      expect(line).toMatch(/^"([^"]|"")*"(,"([^"]|"")*")*$/)
    expect(cells(safe.text)[1]).toEqual(['org-1', attack, 'x;@SUM(A1)'])
  })
})

describe('a CSV answer made safe', () => {
  it('escapes planted formulas once, keeps cells the service escaped, counts rows and cells', () => {
    const service = [
      'id,name,note',
      `org-1,'=HYPERLINK(""http://x""),plain`,
      'org-2,"=HYPERLINK(""http://y"")",@evil',
      'org-3,"Comma, Inc.","two\nlines"',
      '',
    ].join('\r\n')
    const safe = escapeCsvAnswer(bytes(service), CSV)
    expect(safe.rows).toBe(3)
    expect(safe.escapedCells).toBe(2)
    expect(cells(safe.text)).toEqual([
      ['id', 'name', 'note'],
      ['org-1', `'=HYPERLINK(""http://x"")`, 'plain'],
      ['org-2', `'=HYPERLINK("http://y")`, "'@evil"],
      ['org-3', 'Comma, Inc.', 'two\nlines'],
    ])
    expect(safe.text.endsWith('\r\n')).toBe(true)
    // escaping what came out changes nothing more
    const again = escapeCsvAnswer(bytes(safe.text), CSV)
    expect(again.escapedCells).toBe(0)
    expect(again.text).toBe(safe.text)
  })

  it('escapes the header too, keeps a byte order mark and negative numbers', () => {
    const safe = escapeCsvAnswer(bytes('\uFEFF=a,b\r\n-5,+x\r\n'), 'text/csv')
    expect(safe.text).toBe('\uFEFF"\'=a","b"\r\n"-5","\'+x"\r\n')
    expect(safe.escapedCells).toBe(2)
    expect(safe.rows).toBe(1)
  })

  it('takes a header-only file (no rows) and an answer without a content type', () => {
    expect(escapeCsvAnswer(bytes('id,name\n'), null)).toEqual({
      text: '"id","name"\r\n',
      rows: 0,
      escapedCells: 0,
    })
  })

  it('refuses what is not CSV text, saying why', () => {
    expect(refusal('{"data":[]}', 'application/json')).toContain('application/json')
    expect(refusal('{"data":[]}', null)).toContain('JSON')
    expect(refusal('<!doctype html><p>Proxy error</p>', 'text/plain')).toContain('HTML')
    expect(refusal('', CSV)).toContain('empty')
    expect(refusal('  \r\n', CSV)).toContain('empty')
    expect(refusal(Buffer.from([0x69, 0x64, 0x0a, 0xff, 0xfe]), CSV)).toContain('UTF-8')
    expect(refusal('id\n\u0000\u0001', CSV)).toContain('binary')
    expect(refusal('id,name\norg-1,"open quote\n', CSV)).toMatch(/could not be read as CSV/)
    expect(refusal('id,name\norg-1,a,b\n', CSV)).toContain('row 2 has 3 cells')
    expect(refusal('%PDF-1.7', 'application/pdf')).toContain('application/pdf')
  })
})
