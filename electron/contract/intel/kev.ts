// CISA's Known Exploited Vulnerabilities catalog in its published JSON format (issue 37 §1):
// https://www.cisa.gov/known-exploited-vulnerabilities-catalog, the file
// known_exploited_vulnerabilities.json and its schema (catalogVersion, dateReleased, count,
// vulnerabilities[] with cveID, dateAdded, dueDate, knownRansomwareCampaignUse, …). The real file
// is accepted exactly as published; anything else is refused with the field that is wrong named.
// Fields ScanDesk does not use are kept out of the pack (they stay in the file, by its SHA-256).
import { z } from 'zod'

/** A CVE identifier as KEV and EPSS spell it (upper case; 4 to 7 digits after the year). */
export const CVE_ID = /^CVE-\d{4}-\d{4,7}$/

/** A calendar date as KEV writes it (YYYY-MM-DD), checked to be a real day. */
export const kevDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-03-02')
  .refine((d) => {
    const t = new Date(`${d}T00:00:00Z`)
    return !Number.isNaN(t.getTime()) && t.toISOString().startsWith(d)
  }, 'is not a real calendar date')

const entry = z.looseObject({
  cveID: z.string().regex(CVE_ID, 'must be a CVE identifier like CVE-2024-12345'),
  dateAdded: kevDate,
  dueDate: kevDate,
  // CISA writes "Known" or "Unknown"; nothing else has been published.
  knownRansomwareCampaignUse: z.enum(['Known', 'Unknown']),
  vendorProject: z.string().optional(),
  product: z.string().optional(),
  vulnerabilityName: z.string().optional(),
})

const catalog = z.looseObject({
  title: z.string().optional(),
  catalogVersion: z.string().trim().min(1, 'is required').max(64),
  dateReleased: z.iso.datetime({ offset: true, message: 'must be a date and time' }),
  count: z.number().int().min(0),
  vulnerabilities: z.array(entry),
})

/** One KEV entry as ScanDesk keeps it. */
export interface KevEntry {
  cve: string
  dateAdded: string
  dueDate: string
  ransomware: boolean
  name: string | null
}

/** A KEV catalog edition, parsed. */
export interface KevCatalog {
  /** catalogVersion (e.g. 2026.11.30). */
  edition: string
  /** dateReleased, as published. */
  released: string
  entries: KevEntry[]
}

/** What a parse refused: a plain sentence naming the field (or line) that is wrong. */
export interface FeedProblem {
  message: string
}

/** The field path of a zod issue as a reader writes it: vulnerabilities[12].dateAdded. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`))
    .join('')
}

/**
 * Parses the text of a KEV catalog file. Refuses text that is not JSON, a field missing or of the
 * wrong kind, a `count` that disagrees with the entries, and a CVE listed twice.
 */
export function parseKevCatalog(
  text: string,
): { ok: true; catalog: KevCatalog } | { ok: false; problem: FeedProblem } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { ok: false, problem: { message: 'The KEV file is not JSON.' } }
  }
  const parsed = catalog.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const where = fieldPath(issue.path) || 'the file'
    return { ok: false, problem: { message: `The KEV file's ${where} ${issue.message}.` } }
  }
  const { vulnerabilities, count } = parsed.data
  if (count !== vulnerabilities.length)
    return {
      ok: false,
      problem: {
        message: `The KEV file's count says ${count} but it lists ${vulnerabilities.length} vulnerabilities.`,
      },
    }
  const seen = new Set<string>()
  const entries: KevEntry[] = []
  for (const [i, v] of vulnerabilities.entries()) {
    if (seen.has(v.cveID))
      return {
        ok: false,
        problem: {
          message: `The KEV file's vulnerabilities[${i}].cveID ${v.cveID} is listed twice.`,
        },
      }
    seen.add(v.cveID)
    entries.push({
      cve: v.cveID,
      dateAdded: v.dateAdded,
      dueDate: v.dueDate,
      ransomware: v.knownRansomwareCampaignUse === 'Known',
      name: v.vulnerabilityName ?? null,
    })
  }
  return {
    ok: true,
    catalog: { edition: parsed.data.catalogVersion, released: parsed.data.dateReleased, entries },
  }
}
