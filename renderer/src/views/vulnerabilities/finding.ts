// What the vulnerability page shows beyond the plain attributes: texts the service wrote (shown
// as text, never as HTML) and references (links only where they are https).

/** Attributes the page shows in sections of their own rather than in the attribute list. */
export const SECTION_FIELDS = ['description', 'evidence', 'solution', 'references'] as const

/** A reference of a finding: its text, and the address to open where it is a safe https link. */
export interface Reference {
  text: string
  href: string | null
}

/**
 * The address of `url` when the OS browser may open it: https, a host, no user name or password
 * in it, no spaces or control characters, 2,048 characters at most (the rule main's
 * `openExternally` applies again). Anything else is null and shown as plain text.
 */
export function httpsHref(url: string): string | null {
  if (url.length > 2048) return null
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i)
    if (code <= 0x20 || code === 0x7f) return null
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== 'https:' || !parsed.hostname) return null
  if (parsed.username || parsed.password) return null
  return parsed.href
}

/**
 * The finding's references: a list of addresses (or `{url}` objects), or one text with an
 * address per line; the CVE identifiers as NVD links when the service gives no references.
 */
export function referencesOf(attributes: Record<string, unknown>): Reference[] {
  const raw = attributes.references
  const texts: string[] = Array.isArray(raw)
    ? raw.flatMap((r) =>
        typeof r === 'string'
          ? [r]
          : r && typeof r === 'object' && typeof (r as { url?: unknown }).url === 'string'
            ? [(r as { url: string }).url]
            : [],
      )
    : typeof raw === 'string'
      ? raw.split(/\r?\n/)
      : []
  const refs = texts.map((t) => t.trim()).filter(Boolean)
  if (!refs.length && Array.isArray(attributes.cve_ids))
    for (const cve of attributes.cve_ids)
      if (typeof cve === 'string' && /^CVE-\d{4}-\d{4,7}$/.test(cve))
        refs.push(`https://nvd.nist.gov/vuln/detail/${cve}`)
  return refs.map((text) => ({ text, href: httpsHref(text) }))
}

/** A text attribute as text ('' when absent); other values as their JSON. */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  return JSON.stringify(value, null, 2)
}
