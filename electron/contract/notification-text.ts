// The text of a desktop notification, made safe to hand to the OS. Every native notification
// passes through `notificationText`: main's (the service's notifications, export jobs) in the
// Electron host's `notify`, the window's (a scan finished) in the renderer's `notify`, so service
// text is never shown raw. In the contract because both sides use it.

/** Longest title (characters), ellipsis included: a notification's summary is one short line. */
export const TITLE_MAX = 100
/** Longest body (characters), ellipsis included. */
export const BODY_MAX = 300

/** C0 controls but tab and line feed, DEL, and C1 controls (NEL included). */
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g
/**
 * Bidirectional formatting characters (ALM, LRM, RLM, embeddings and overrides LRE…RLO, PDF,
 * isolates LRI…PDI): they can make `exe.pdf` read as `fdp.exe`, or reorder a sentence.
 */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
/** Line and paragraph separators, read as line breaks. */
const SEPARATORS = /\r\n|[\r\u2028\u2029\u0085]/g

const MARKUP: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }

/** At most `max` characters (code points, so no surrogate half), ending in `…` when cut. */
function cap(text: string, max: number): string {
  const chars = Array.from(text)
  if (chars.length <= max) return text
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`
}

/** Line breaks unified to `\n`, tabs to spaces, control and bidi characters removed. */
function clean(text: string): string {
  return text.replace(SEPARATORS, '\n').replace(/\t/g, ' ').replace(CONTROLS, '').replace(BIDI, '')
}

/** `&`, `<` and `>` as entities, for a notification server that reads the body as markup. */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>]/g, (c) => MARKUP[c])
}

/** How the platform's notification server reads the body. */
export interface NotificationTextOptions {
  /**
   * True where the body is read as markup: Linux servers following the Desktop Notifications
   * specification render `<b>`, `<a href>`, `<img>` in the body (Electron hands libnotify the
   * text as it is). Elsewhere the body is plain text and `&amp;` would show as written.
   */
  markup: boolean
}

/**
 * A notification's title and body made safe: control and bidi characters removed, the title on
 * one line (runs of white space collapsed) and capped at TITLE_MAX, the body with at most one
 * blank line in a row, capped at BODY_MAX, then `&<>` escaped where the body is markup.
 */
export function notificationText(
  title: string,
  body: string,
  options: NotificationTextOptions,
): { title: string; body: string } {
  const oneLine = clean(title).replace(/\s+/g, ' ').trim()
  const lines = clean(body)
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  const safeBody = cap(lines, BODY_MAX)
  return {
    title: cap(oneLine, TITLE_MAX) || 'ScanDesk',
    body: options.markup ? escapeMarkup(safeBody) : safeBody,
  }
}
