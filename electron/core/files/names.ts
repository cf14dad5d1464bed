import { randomBytes } from 'node:crypto'

/** Longest stem (name without extension) of a saved file, in UTF-8 bytes. */
export const MAX_STEM_BYTES = 200

/** The stem used when nothing printable is left of a name. */
export const FALLBACK_STEM = 'report'

// Reserved on Windows, control characters everywhere, and the Unicode marks that reorder or
// hide text (a right-to-left override can make "fdp.exe" read as "exe.pdf").
const FORBIDDEN = /[<>:"/\\|?*]/g
// eslint-disable-next-line no-control-regex -- control characters are what this rule removes
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g
// Windows device names, with or without an extension, trailing spaces or superscript digits.
const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

const encoder = new TextEncoder()

function utf8Length(text: string): number {
  return encoder.encode(text).length
}

let graphemes: Intl.Segmenter | null | undefined

/** User-perceived characters (an emoji with its modifiers stays whole); code points as fallback. */
function clusters(text: string): string[] {
  if (graphemes === undefined)
    graphemes =
      typeof Intl.Segmenter === 'function'
        ? new Intl.Segmenter('en', { granularity: 'grapheme' })
        : null
  return graphemes ? Array.from(graphemes.segment(text), (s) => s.segment) : Array.from(text)
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes between whole characters. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text
  let out = ''
  let used = 0
  for (const piece of clusters(text)) {
    const size = utf8Length(piece)
    if (used + size > maxBytes) break
    out += piece
    used += size
  }
  return out
}

function trimEnds(text: string): string {
  return text.replace(/^[\s.]+/u, '').replace(/[\s.]+$/u, '')
}

/** A name part made safe: no forbidden or invisible characters, spaces collapsed, NFC. */
function cleanPart(raw: string): string {
  const text = raw
    .replace(LONE_SURROGATE, '')
    .normalize('NFC')
    .replace(/[\t\n\r\v\f]/g, ' ')
    .replace(INVISIBLE, '')
    .replace(FORBIDDEN, '_')
    .normalize('NFC')
  // Spaces before a dot go too, so a stem never ends in a space before any extension.
  return text.replace(/\s+/gu, ' ').replace(/ \./g, '.')
}

/** True when Windows would take the name for a device (CON, nul.txt, COM1 .pdf, …). */
export function isReservedDeviceName(fileName: string): boolean {
  const base = fileName.split('.')[0].replace(/[\s]+$/u, '')
  return DEVICE.test(base)
}

/**
 * A file stem valid on Windows, macOS and Linux: no path separators or reserved characters, no
 * control or direction marks, no leading dots or spaces, no trailing dots or spaces, not a
 * Windows device name, NFC, at most MAX_STEM_BYTES UTF-8 bytes cut between whole characters;
 * FALLBACK_STEM when nothing is left.
 */
export function safeStem(raw: string, maxBytes = MAX_STEM_BYTES): string {
  let stem = trimEnds(truncateUtf8(trimEnds(cleanPart(raw)), maxBytes))
  if (!stem) stem = FALLBACK_STEM
  if (isReservedDeviceName(stem)) stem = truncateUtf8(`_${stem}`, maxBytes)
  return stem
}

/**
 * A whole file name made safe: the stem as `safeStem`, the extension (letters and digits, at
 * most 10) kept as given. Used on any name that did not come from documentFileName.
 */
export function safeFileName(raw: string): string {
  // A cut stem can end in what looks like a new extension ("a..9"); settle on a fixed point.
  let name = safeFileNameOnce(raw)
  for (let i = 0; i < 4; i++) {
    const again = safeFileNameOnce(name)
    if (again === name) break
    name = again
  }
  return name
}

function safeFileNameOnce(raw: string): string {
  const cleaned = trimEnds(cleanPart(raw))
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(cleaned)
  const stem = safeStem(m ? cleaned.slice(0, m.index) : cleaned)
  return m ? `${stem}.${m[1]}` : stem
}

function isoDate(date: Date): string | null {
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10)
}

/**
 * The name a downloaded document is saved under: `<name> - <id> - <YYYY-MM-DD>.<format>` (date
 * in UTC), every part made safe for every OS. Never derived from Content-Disposition.
 */
export function documentFileName(d: {
  name: string
  id: string
  format: 'pdf' | 'csv'
  date: Date
}): string {
  const id = truncateUtf8(trimEnds(cleanPart(d.id)), 40)
  const date = isoDate(d.date)
  const suffix = [id, date].filter(Boolean).join(' - ')
  const suffixBytes = suffix ? utf8Length(` - ${suffix}`) : 0
  const name = trimEnds(truncateUtf8(trimEnds(cleanPart(d.name)), MAX_STEM_BYTES - suffixBytes))
  const stem = safeStem([name || FALLBACK_STEM, suffix].filter(Boolean).join(' - '))
  return `${stem}.${d.format}`
}

/** The folder, inside an account's download folder, that holds its SAQ files. */
export const SAQ_FOLDER = 'SAQ'

/** The folder, inside the SAQ folder, that holds copies of evidence files. */
export const EVIDENCE_FOLDER = 'Evidence'

/** The most of an SAQ's own name its PDF's file name keeps (UTF-8 bytes; the organization follows). */
const SAQ_NAME_BYTES = 100

/**
 * The name an SAQ's PDF is saved under: `SAQ <type> - <name> - <organization> - <YYYY-MM-DD>.pdf`
 * (the questionnaire's own name; date of the download, UTC), built from our own data and made safe
 * for every OS; a missing name or organization is left out, a long one is cut (the date stays).
 */
export function saqFileName(d: {
  saqType: string
  name: string
  organization: string
  date: Date
}): string {
  const type = truncateUtf8(trimEnds(cleanPart(d.saqType)), 40)
  const date = isoDate(d.date)
  const suffix = date ? ` - ${date}` : ''
  const head = `SAQ ${type}`.trim()
  const part = (raw: string, maxBytes: number) =>
    trimEnds(truncateUtf8(trimEnds(cleanPart(raw)), Math.max(0, maxBytes)))
  const room = MAX_STEM_BYTES - utf8Length(`${head}${suffix}`)
  const name = part(d.name, Math.min(SAQ_NAME_BYTES, room - 3))
  const org = part(d.organization, room - (name ? utf8Length(` - ${name}`) : 0) - 3)
  return `${safeStem([head, name, org].filter(Boolean).join(' - ') + suffix)}.pdf`
}

/** The name of a folder of evidence (an SAQ key, a requirement number): a safe stem. */
export function safeFolderName(raw: string): string {
  return safeStem(raw, 64)
}

/**
 * The folder of one audit bundle: `Audit <YYYY-MM-DD HH-mm-ss>` (UTC; no colons, which Windows
 * refuses in names).
 */
export function auditFolderName(date: Date): string {
  const iso = date.toISOString()
  return `Audit ${iso.slice(0, 10)} ${iso.slice(11, 19).replace(/:/g, '-')}`
}

/**
 * The hidden folder an audit bundle is built in before it is renamed to `auditFolderName`:
 * `.Audit <YYYY-MM-DD HH-mm-ss>.<12 hex digits>.building`. Only a crash leaves one behind.
 */
export function auditBuildingName(date: Date, random = randomBytes(6).toString('hex')): string {
  return `.${auditFolderName(date)}.${random}.building`
}

/** Names `auditBuildingName` makes, and only those (what the clean-up at start may remove). */
export const AUDIT_BUILDING_NAME =
  /^\.Audit \d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}\.[0-9a-f]{12}\.building$/

/** Longest file name most file systems take (ext4, NTFS, APFS: 255 bytes or characters). */
const MAX_NAME_BYTES = 255

/**
 * The temp file of a download, a copy or an atomic write: `.<name>.<12 hex digits>.partial` beside the final name, the name
 * cut (between whole characters) so the temp name fits where the final name fits.
 */
export function partialName(fileName: string): string {
  const room = MAX_NAME_BYTES - '.'.length - '.0123456789ab.partial'.length
  return `.${truncateUtf8(fileName, room)}.${randomBytes(6).toString('hex')}.partial`
}

/** Names `partialName` makes, and only those (what the clean-up at start may remove). */
export const PARTIAL_NAME = /^\..+\.[0-9a-f]{12}\.partial$/
