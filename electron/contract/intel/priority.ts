// One priority for an open finding, explained in words (issue 37 §3): a tier from the finding's
// severity, the exploit intelligence of its CVEs (CISA KEV, FIRST EPSS) and its asset's context,
// and a sentence saying why with where each fact came from. One pure function, shared by main
// (the index, the queue, notifications) and the renderer (columns, the finding's page).
// docs/decisions.md "Fix first: the priority rule" gives the rule's sources.
//
// The rule, in order:
// - Exploitation: "active" when a CVE is in KEV; "likely" when a CVE's EPSS is at least
//   EPSS_LIKELY or its percentile at least PERCENTILE_LIKELY; "not known" when every CVE has a
//   current score below both; "unknown" when a CVE lacks a current score (no pack, a stale pack, a
//   CVE the pack does not list, or a finding without CVEs).
// - Exposure: "exposed" when the asset is internet-facing or a crown jewel.
// - Tier: active → Fix now (Fix next for a low or info finding on an unexposed asset); likely →
//   Fix now when critical or high and exposed, Fix next when critical or high or medium, else Plan;
//   otherwise by severity: critical → Fix next, high → Fix next when exposed else Plan, medium →
//   Plan, low and info → Watch; then "unknown" exploitation lifts Watch to Plan (missing data is
//   never read as low risk).
// A stale pack's positive facts still count (a CVE once in KEV stays exploited; a stale high score
// is kept) while its silence is unknown: stale data can raise a tier, never lower one.
import type { KevEntry } from './kev'
import type { EpssScore } from './epss'

/** The tiers, most urgent first. */
export const TIERS = ['fix-now', 'fix-next', 'plan', 'watch'] as const
export type Tier = (typeof TIERS)[number]

/** How each tier reads. */
export const TIER_LABEL: Record<Tier, string> = {
  'fix-now': 'Fix now',
  'fix-next': 'Fix next',
  plan: 'Plan',
  watch: 'Watch',
}

/** A tier's rank: 0 for Fix now; a smaller rank is more urgent. */
export const tierRank = (tier: Tier): number => TIERS.indexOf(tier)

/** EPSS probability from which exploitation is "likely" (FIRST's 10 % operating point). */
export const EPSS_LIKELY = 0.1
/** EPSS percentile from which exploitation is "likely" (the top 5 % of scored CVEs). */
export const PERCENTILE_LIKELY = 0.95

/** The asset criticalities, most critical first. */
export const CRITICALITIES = ['crown-jewel', 'high', 'normal', 'low'] as const
export type Criticality = (typeof CRITICALITIES)[number]
/** Where an asset can be reached from. */
export const EXPOSURES = ['internet-facing', 'internal'] as const
export type Exposure = (typeof EXPOSURES)[number]

/** Where a pack's facts came from, as the sentence names it. */
export interface PackSource {
  /** KEV: catalogVersion; EPSS: model_version. */
  edition: string
  /** KEV: dateReleased; EPSS: score_date (ISO). */
  date: string
  /** Older than the staleness threshold at the time of ranking. */
  stale: boolean
}

/** What the ranking knows of one finding. */
export interface PriorityInput {
  severity: string
  cves: readonly string[]
  /** The KEV pack in use (null: none imported) and a lookup of its entries. */
  kev: { source: PackSource; entry: (cve: string) => KevEntry | undefined } | null
  /** The EPSS pack in use (null: none imported) and a lookup of its scores. */
  epss: { source: PackSource; score: (cve: string) => EpssScore | undefined } | null
  criticality?: Criticality | null
  exposure?: Exposure | null
  /** The remediation policy's due moment (ISO), if any. */
  policyDue?: string | null
}

/** The finding's due date and what set it. */
export interface PriorityDue {
  at: string
  by: 'kev' | 'policy'
}

/** A finding's priority. */
export interface Priority {
  tier: Tier
  exploitation: 'active' | 'likely' | 'not-known' | 'unknown'
  /** The CVE in KEV (the earliest added), if any. */
  kev: KevEntry | null
  /** The highest EPSS score among the CVEs, and its CVE. */
  epss: (EpssScore & { cve: string }) | null
  due: PriorityDue | null
  /** Why, in words, with the sources: the reasons joined by "; ". */
  sentence: string
}

const SEVERITY_RANK: Record<string, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 }

const pct = (p: number) => {
  const n = Math.floor(p * 100)
  const suffix =
    n % 10 === 1 && n !== 11
      ? 'st'
      : n % 10 === 2 && n !== 12
        ? 'nd'
        : n % 10 === 3 && n !== 13
          ? 'rd'
          : 'th'
  return `${n}${suffix} percentile`
}
const day = (iso: string) => iso.slice(0, 10)

function strongestKev(input: PriorityInput): KevEntry | null {
  let best: KevEntry | null = null
  for (const cve of input.cves) {
    const e = input.kev?.entry(cve)
    if (e && (!best || e.dateAdded < best.dateAdded || (e.ransomware && !best.ransomware))) best = e
  }
  return best
}

const likely = (s: EpssScore) => s.epss >= EPSS_LIKELY || s.percentile >= PERCENTILE_LIKELY

// The score a finding is judged and explained by: a "likely" one first (so that a CVE whose
// percentile alone makes it likely is never hidden behind another CVE's higher but unlikely
// score), then the highest score, then the highest percentile.
function highestEpss(input: PriorityInput): (EpssScore & { cve: string }) | null {
  let best: (EpssScore & { cve: string }) | null = null
  for (const cve of input.cves) {
    const s = input.epss?.score(cve)
    if (s && (!best || outranks(s, best))) best = { ...s, cve }
  }
  return best
}

function outranks(s: EpssScore, best: EpssScore): boolean {
  if (likely(s) !== likely(best)) return likely(s)
  return s.epss > best.epss || (s.epss === best.epss && s.percentile > best.percentile)
}

/** Whether every CVE of the finding has a current (not stale) EPSS score. */
function everyScoreCurrent(input: PriorityInput): boolean {
  if (!input.epss || input.epss.source.stale || input.cves.length === 0) return false
  return input.cves.every((cve) => input.epss!.score(cve) !== undefined)
}

/** "an internet-facing crown jewel", "a high-criticality asset", "an internal asset", or null. */
function assetWords(criticality: Criticality | null, exposure: Exposure | null): string | null {
  if (!criticality && !exposure) return null
  const noun = criticality === 'crown-jewel' ? 'crown jewel' : 'asset'
  const words = [
    exposure,
    criticality && criticality !== 'crown-jewel' ? `${criticality}-criticality` : null,
    noun,
  ].filter(Boolean)
  const phrase = words.join(' ')
  return `${/^[aeiou]/.test(phrase) ? 'an' : 'a'} ${phrase}`
}

/** The tier, the reason and the due date of one open finding. */
export function prioritize(input: PriorityInput): Priority {
  const sev = SEVERITY_RANK[input.severity] ?? SEVERITY_RANK.info!
  const exposed = input.exposure === 'internet-facing' || input.criticality === 'crown-jewel'
  const kev = strongestKev(input)
  const epss = highestEpss(input)
  const exploitation: Priority['exploitation'] = kev
    ? 'active'
    : epss && likely(epss)
      ? 'likely'
      : everyScoreCurrent(input) && (input.kev ? !input.kev.source.stale : false)
        ? 'not-known'
        : 'unknown'

  let tier: Tier
  if (exploitation === 'active') tier = sev >= 3 && !exposed ? 'fix-next' : 'fix-now'
  else if (exploitation === 'likely')
    tier = sev <= 1 && exposed ? 'fix-now' : sev <= 2 ? 'fix-next' : 'plan'
  else {
    tier =
      sev === 0
        ? 'fix-next'
        : sev === 1
          ? exposed
            ? 'fix-next'
            : 'plan'
          : sev === 2
            ? 'plan'
            : 'watch'
    if (exploitation === 'unknown' && tier === 'watch') tier = 'plan'
  }

  const reasons: string[] = []
  if (kev) {
    const src = input.kev!.source
    reasons.push(
      `In CISA KEV since ${kev.dateAdded}${kev.ransomware ? ' (ransomware use known)' : ''}` +
        ` (catalog ${src.edition}${src.stale ? ', stale' : ''})`,
    )
  } else if (!input.kev) reasons.push('KEV unknown (no catalog imported)')
  else if (input.kev.source.stale)
    reasons.push(`KEV unknown (catalog ${input.kev.source.edition} is stale)`)
  else if (input.cves.length === 0) reasons.push('KEV unknown (no CVE)')
  else reasons.push(`Not in CISA KEV (catalog ${input.kev.source.edition})`)
  if (epss) {
    const src = input.epss!.source
    reasons.push(
      `EPSS ${epss.epss.toFixed(2)}, ${pct(epss.percentile)}` +
        ` (model ${src.edition}, scores of ${day(src.date)}${src.stale ? ', stale' : ''})`,
    )
  } else if (!input.epss) reasons.push('EPSS unknown (no scores imported)')
  else if (input.cves.length === 0) reasons.push('EPSS unknown (no CVE)')
  else reasons.push(`EPSS unknown (not scored in model ${input.epss.source.edition})`)
  reasons.push(input.severity)
  const where = assetWords(input.criticality ?? null, input.exposure ?? null)
  if (where) reasons.push(`on ${where}`)

  let due: PriorityDue | null = input.policyDue ? { at: input.policyDue, by: 'policy' } : null
  if (kev) {
    const kevDue = `${kev.dueDate}T23:59:59.999Z`
    if (!due || kevDue < due.at) {
      reasons.push(
        due
          ? `due ${kev.dueDate} by KEV, earlier than the remediation policy's ${day(due.at)}`
          : `due ${kev.dueDate} by KEV`,
      )
      due = { at: kevDue, by: 'kev' }
    }
  }
  return { tier, exploitation, kev, epss, due, sentence: reasons.join('; ') }
}
