// Names ScanDesk keeps (views, account labels) are trimmed, bounded and free of characters that
// make them read other than they are; prototype keys in a parsed record are refused, not dropped.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { hiddenCharacterOf, keptName, recordRefusingPrototypeKeys } from './names'

const name = keptName(80)
const messageOf = (value: unknown) => name.safeParse(value).error?.issues[0]?.message

describe('keptName', () => {
  it('trims, and refuses blank and over-long names', () => {
    expect(name.parse('  Open criticals  ')).toBe('Open criticals')
    expect(messageOf('   ')).toBe('is required')
    expect(messageOf('x'.repeat(81))).toBe('is longer than 80 characters')
    expect(name.parse('x'.repeat(80))).toHaveLength(80)
  })

  it('refuses control, bidi, separator and invisible characters, naming the first', () => {
    expect(messageOf('\u202Egnp.exe\u200F\u0000')).toBe(
      'holds U+202E, an invisible control or direction character: type the name without it',
    )
    for (const [cell, code] of [
      ['two\nlines', 'U+000A'],
      ['tab\there', 'U+0009'],
      ['nul\u0000', 'U+0000'],
      ['del\u007F', 'U+007F'],
      ['c1\u0085', 'U+0085'],
      ['rlm\u200Fx', 'U+200F'],
      ['lri\u2066x', 'U+2066'],
      ['alm\u061Cx', 'U+061C'],
      ['zw\u200Bsp', 'U+200B'],
      ['wj\u2060x', 'U+2060'],
      ['ls\u2028x', 'U+2028'],
      ['in\uFEFFside', 'U+FEFF'],
    ])
      expect(messageOf(cell), cell).toContain(`holds ${code}`)
  })

  it('keeps what scripts and emoji need: joiners, accents, other alphabets', () => {
    for (const ok of ['👨‍👩‍👧 family', 'می‌خواهم', 'Überprüfung', 'Σύνοψη', '漏洞 一覧'])
      expect(name.parse(ok)).toBe(ok)
    expect(hiddenCharacterOf('plain')).toBeNull()
  })
})

describe('recordRefusingPrototypeKeys', () => {
  const query = recordRefusingPrototypeKeys(z.string().regex(/^[a-z_]+$/), z.string())

  it('refuses __proto__, constructor and prototype with an error instead of dropping them', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const parsed = query.safeParse(JSON.parse(`{"${key}": "x", "severity": "critical"}`))
      expect(parsed.success, key).toBe(false)
      expect(parsed.error?.issues[0]).toMatchObject({
        path: [key],
        message: `holds the key ${key}, which ScanDesk does not take`,
      })
    }
    expect(query.parse({ severity: 'critical' })).toEqual({ severity: 'critical' })
  })
})
