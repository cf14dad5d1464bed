// What the vulnerability page shows beyond the plain attributes: texts the service wrote (shown
// as text, never as HTML) and references (links only where they are https).
import { externalUrl } from '@contract/links'

/** Attributes the page shows in sections of their own rather than in the attribute list. */
export const SECTION_FIELDS = ['description', 'evidence', 'solution', 'references'] as const

/** A reference of a finding: its text, and the address to open where it is a safe https link. */
export interface Reference {
  text: string
  href: string | null
}

/**
 * The address of `url` when the OS browser may open it (main's `openExternally` rule, applied
 * again there); anything else is null and shown as plain text.
 */
export const httpsHref = externalUrl

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
