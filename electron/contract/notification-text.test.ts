import { describe, expect, it } from 'vitest'
import { BODY_MAX, TITLE_MAX, escapeMarkup, notificationText } from './notification-text'

const linux = { markup: true }
const plain = { markup: false }

describe('the text of a desktop notification', () => {
  it('escapes & < > in the body where the server reads markup, and only there', () => {
    const body = 'Report <a href="https://evil.example">ready</a> & <img src="x">'
    expect(notificationText('Acme', body, linux).body).toBe(
      'Report &lt;a href="https://evil.example"&gt;ready&lt;/a&gt; &amp; &lt;img src="x"&gt;',
    )
    expect(notificationText('Acme', body, plain).body).toBe(body)
    expect(escapeMarkup('a&b<c>d')).toBe('a&amp;b&lt;c&gt;d')
  })

  it('removes control characters from title and body', () => {
    const text = notificationText(
      'Scan\u0000 done\u0007\u001b[31m',
      'a\u0008b\u007fc\u0085d\u009be',
      plain,
    )
    expect(text.title).toBe('Scan done[31m')
    expect(text.body).toBe('abc\nde')
  })

  it('removes bidirectional formatting characters (no exe.pdf shown as fdp.exe)', () => {
    const spoof = 'invoice\u202Efdp.exe'
    const text = notificationText(`New file ${spoof}`, `\u2066${spoof}\u2069 \u200F\u061C`, linux)
    expect(text.title).toBe('New file invoicefdp.exe')
    expect(text.body).toBe('invoicefdp.exe')
    for (const c of ['\u202A', '\u202B', '\u202C', '\u202D', '\u2067', '\u2068', '\u200E'])
      expect(notificationText(c, c, plain)).toEqual({ title: 'ScanDesk', body: '' })
  })

  it('keeps the title on one line and the body’s line breaks, without runs of blank lines', () => {
    const text = notificationText(
      'Acme:\r\n  New\tscan\u2028finished',
      'one\r\ntwo\r\r\n\n\nthree',
      plain,
    )
    expect(text.title).toBe('Acme: New scan finished')
    expect(text.body).toBe('one\ntwo\n\nthree')
  })

  it('caps title and body, ending in an ellipsis, without splitting a character', () => {
    const text = notificationText('T'.repeat(500), '😀'.repeat(1000), plain)
    expect(Array.from(text.title)).toHaveLength(TITLE_MAX)
    expect(text.title.endsWith('T…')).toBe(true)
    expect(Array.from(text.body)).toHaveLength(BODY_MAX)
    expect(text.body.endsWith('😀…')).toBe(true)
    expect(notificationText('short', 'fits', plain)).toEqual({ title: 'short', body: 'fits' })
  })

  it('caps before escaping, so an entity is never cut in half', () => {
    const body = notificationText('x', '&'.repeat(BODY_MAX + 10), linux).body
    expect(body).toBe(`${'&amp;'.repeat(BODY_MAX - 1)}…`)
  })
})
