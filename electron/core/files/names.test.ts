import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  auditFolderName,
  documentFileName,
  saqFileName,
  safeFolderName,
  isReservedDeviceName,
  MAX_STEM_BYTES,
  safeFileName,
  safeStem,
  truncateUtf8,
} from './names'

const DATE = new Date('2024-05-01T23:30:00Z')
const doc = (name: string, id = 'rpt-001', format: 'pdf' | 'csv' = 'pdf') =>
  documentFileName({ name, id, format, date: DATE })

/** Every rule a saved name must meet on Windows, macOS and Linux; the broken rule, or null. */
function broken(name: string): string | null {
  const dot = name.lastIndexOf('.')
  const stem = dot > 0 ? name.slice(0, dot) : name
  if (!name) return 'empty'
  if (Buffer.byteLength(stem) > MAX_STEM_BYTES) return 'stem too long'
  if (Buffer.byteLength(name) > 255) return 'name too long'
  // eslint-disable-next-line no-control-regex -- control characters are what this rule removes
  if (/[<>:"/\\|?*\u0000-\u001f\u007f-\u009f]/.test(name)) return 'forbidden character'
  if (/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/.test(name)) return 'direction mark'
  if (/^[.\s]/.test(name)) return 'leading dot or space'
  if (/[.\s]$/.test(name)) return 'trailing dot or space'
  if (/^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i.test(name.split('.')[0].trimEnd()))
    return 'windows device'
  if (name.normalize('NFC') !== name) return 'not NFC'
  if (Buffer.from(name, 'utf8').toString('utf8') !== name) return 'lone surrogate'
  if (path.posix.basename(name) !== name || path.win32.basename(name) !== name) return 'a path'
  return null
}

describe('naming a downloaded document', () => {
  it('is "<name> - <id> - <YYYY-MM-DD>.<format>" with the UTC date', () => {
    expect(doc('PCI quarterly')).toBe('PCI quarterly - rpt-001 - 2024-05-01.pdf')
    expect(doc('Inventory', 'adv-7', 'csv')).toBe('Inventory - adv-7 - 2024-05-01.csv')
  })

  it('replaces separators and reserved characters, so a path cannot be smuggled in', () => {
    expect(doc('../../.bashrc')).toBe('_.._.bashrc - rpt-001 - 2024-05-01.pdf')
    expect(doc('C:\\x.pdf')).toBe('C__x.pdf - rpt-001 - 2024-05-01.pdf')
    expect(doc('a<b>c:"d"|e?f*g')).toBe('a_b_c__d__e_f_g - rpt-001 - 2024-05-01.pdf')
  })

  it('drops control characters and direction marks', () => {
    expect(doc('report.pdf\u0000.exe')).toBe('report.pdf.exe - rpt-001 - 2024-05-01.pdf')
    expect(doc('inv\u202Efdp.exe')).toBe('invfdp.exe - rpt-001 - 2024-05-01.pdf')
    expect(doc('two\nlines\tand  tabs')).toBe('two lines and tabs - rpt-001 - 2024-05-01.pdf')
  })

  it('falls back to "report" when nothing printable is left, and skips an invalid date', () => {
    expect(doc('')).toBe('report - rpt-001 - 2024-05-01.pdf')
    expect(doc(' ...\u0000 ')).toBe('report - rpt-001 - 2024-05-01.pdf')
    expect(documentFileName({ name: 'X', id: 'r1', format: 'pdf', date: new Date('nope') })).toBe(
      'X - r1.pdf',
    )
  })

  it('cuts a long name to 200 bytes between whole emoji, keeping id and date', () => {
    const name = doc('😀'.repeat(75))
    expect(name.endsWith(' - rpt-001 - 2024-05-01.pdf')).toBe(true)
    expect(Buffer.byteLength(name.slice(0, -4))).toBeLessThanOrEqual(MAX_STEM_BYTES)
    expect(name.replace(' - rpt-001 - 2024-05-01.pdf', '')).toMatch(/^(😀)+$/u)
    const family = '👨‍👩‍👧‍👦'
    const cut = truncateUtf8(family.repeat(10), 30)
    expect(cut).toBe(family)
  })

  it('NFC-normalises names', () => {
    expect(doc('Cafe\u0301')).toBe('Caf\u00e9 - rpt-001 - 2024-05-01.pdf')
  })
})

describe('Windows device names', () => {
  it('prefixes them in any case, with or without an extension', () => {
    for (const raw of [
      'CON',
      'con',
      'Prn.pdf',
      'aux',
      'NUL.txt',
      'com1',
      'LPT9.csv',
      'COM¹',
      'nul .pdf',
    ])
      expect(isReservedDeviceName(safeFileName(raw))).toBe(false)
    expect(safeStem('CON')).toBe('_CON')
    expect(safeFileName('lpt3.PDF')).toBe('_lpt3.PDF')
    expect(safeStem('CONSOLE')).toBe('CONSOLE')
  })
})

/** A small seeded PRNG (mulberry32), so a failing case can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const PIECES = [
  '.',
  '..',
  ' ',
  '/',
  '\\',
  ':',
  '*',
  '?',
  '"',
  '<',
  '>',
  '|',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u202e',
  '\u2066',
  '\ufeff',
  '\u200d',
  'e\u0301',
  '\u0301',
  'CON',
  'nul',
  'com7',
  'LPT1',
  '😀',
  '👨‍👩‍👧',
  '\ud800',
  '\udfff',
  'a',
  'Z',
  '9',
  '-',
  '_',
  'é',
  'ß',
  '中文',
  '\u212b',
  '\ufa6c',
  '\u00a0',
  '\u3000',
  '\t',
  '\n',
  'pdf',
  '.pdf',
  '.exe',
  '%',
  '#',
  '~',
]

function randomString(next: () => number): string {
  const n = Math.floor(next() * 60)
  let out = ''
  for (let i = 0; i < n; i++) {
    if (next() < 0.15) out += String.fromCharCode(Math.floor(next() * 0x10000))
    else out += PIECES[Math.floor(next() * PIECES.length)]
  }
  return next() < 0.05 ? out.repeat(20) : out
}

describe('fuzzing names (seeded)', () => {
  it('every document name and every made-safe name is valid on all three systems', () => {
    const next = prng(20240501)
    for (let i = 0; i < 4000; i++) {
      const raw = randomString(next)
      const format = next() < 0.5 ? 'pdf' : 'csv'
      const name = documentFileName({ name: raw, id: randomString(next), format, date: DATE })
      expect([raw, broken(name)]).toEqual([raw, null])
      expect(name.endsWith(`.${format}`)).toBe(true)
      const safe = safeFileName(raw)
      expect([raw, broken(safe)]).toEqual([raw, null])
      expect([raw, safeFileName(safe)]).toEqual([raw, safe])
      expect([raw, safeFileName(name)]).toEqual([raw, name])
    }
  })
})

describe('SAQ names', () => {
  it('names an SAQ PDF by type, its own name, organization and the UTC date of the download', () => {
    expect(
      saqFileName({
        saqType: 'A-EP',
        name: 'Web shop 2024',
        organization: 'Acme Retail',
        date: DATE,
      }),
    ).toBe('SAQ A-EP - Web shop 2024 - Acme Retail - 2024-05-01.pdf')
    expect(
      saqFileName({ saqType: 'D-Service Provider', name: '', organization: '', date: DATE }),
    ).toBe('SAQ D-Service Provider - 2024-05-01.pdf')
  })

  it('makes the name and organization safe and keeps the date when they are cut', () => {
    const name = saqFileName({
      saqType: 'B/IP',
      name: `Q1: "Stores" <${'n'.repeat(300)}>`,
      organization: `../../etc/${'x'.repeat(400)}\u202e:`,
      date: DATE,
    })
    expect(name).toMatch(/^SAQ B_IP - Q1_ _Stores_ _n+ - _\.\._etc_x+ - 2024-05-01\.pdf$/)
    expect(name).not.toContain('/')
    expect(Buffer.byteLength(name.slice(0, -4))).toBeLessThanOrEqual(MAX_STEM_BYTES)
    // The name is cut to leave the organization room.
    expect(/ - _\.\._etc_(x+) - /.exec(name)![1].length).toBeGreaterThanOrEqual(30)
  })

  it('names evidence folders and audit bundles safely', () => {
    expect(safeFolderName('8.3.1')).toBe('8.3.1')
    expect(safeFolderName('draft-42')).toBe('draft-42')
    expect(safeFolderName('..')).toBe('report')
    expect(auditFolderName(new Date('2025-03-04T05:06:07.890Z'))).toBe('Audit 2025-03-04 05-06-07')
  })
})
