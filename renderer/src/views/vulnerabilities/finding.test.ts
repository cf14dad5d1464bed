import { describe, expect, it } from 'vitest'
import { httpsHref, referencesOf, textOf } from './finding'

describe('which references become links', () => {
  it('links https addresses with a host', () => {
    expect(httpsHref('https://nvd.nist.gov/vuln/detail/CVE-2021-44228')).toBe(
      'https://nvd.nist.gov/vuln/detail/CVE-2021-44228',
    )
  })

  it.each([
    'http://example.com/advisory',
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'ftp://example.com/a',
    'https://user:secret@example.com/',
    'https://user@example.com/',
    'https://',
    'https://exa mple.com/',
    'https://example.com/\nnext',
    ' https://example.com/',
    'vbscript:msgbox(1)',
    '//example.com/advisory',
    'example.com/advisory',
  ])('keeps %j as text', (url) => {
    expect(httpsHref(url)).toBeNull()
  })

  it('keeps an address longer than 2,048 characters as text', () => {
    expect(httpsHref(`https://example.com/${'a'.repeat(2030)}`)).toBeNull()
  })
})

describe('the references of a finding', () => {
  it('reads a list of addresses or {url} objects, and a text with one per line', () => {
    expect(
      referencesOf({ references: ['https://a.example/x', { url: 'http://b.example/' }, 7] }),
    ).toEqual([
      { text: 'https://a.example/x', href: 'https://a.example/x' },
      { text: 'http://b.example/', href: null },
    ])
    expect(referencesOf({ references: 'https://a.example/1\r\n\njavascript:void(0)\n' })).toEqual([
      { text: 'https://a.example/1', href: 'https://a.example/1' },
      { text: 'javascript:void(0)', href: null },
    ])
  })

  it('links the CVE identifiers to NVD when the service gives no references', () => {
    expect(referencesOf({ cve_ids: ['CVE-2023-48795', 'not-a-cve<b>'] })).toEqual([
      {
        text: 'https://nvd.nist.gov/vuln/detail/CVE-2023-48795',
        href: 'https://nvd.nist.gov/vuln/detail/CVE-2023-48795',
      },
    ])
    expect(referencesOf({ references: [], cve_ids: [] })).toEqual([])
  })
})

describe('texts of a finding', () => {
  it('keeps text as it is and shows other values as JSON', () => {
    expect(textOf('<b>bold</b>')).toBe('<b>bold</b>')
    expect(textOf(null)).toBe('')
    expect(textOf({ a: 1 })).toBe('{\n  "a": 1\n}')
  })
})
