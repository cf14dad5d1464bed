// FIRST's Exploit Prediction Scoring System scores in their published CSV format (issue 37 §1):
// https://www.first.org/epss/data_stats — epss_scores-YYYY-MM-DD.csv(.gz): a first line
// `#model_version:v2025.03.14,score_date:2026-11-30T12:55:00Z`, then the header `cve,epss,percentile`,
// then one CVE a line with its probability and percentile, each from 0 to 1. Gzip is undone by the
// core before the text reaches this parser. Anything else is refused with the line named.
import { CVE_ID, type FeedProblem } from './kev'

/** One CVE's EPSS score. */
export interface EpssScore {
  /** Probability of exploitation activity in the next 30 days (0–1). */
  epss: number
  /** The share of all scored CVEs with an equal or lower score (0–1). */
  percentile: number
}

/** An EPSS scores file, parsed. */
export interface EpssScores {
  /** model_version (e.g. v2025.03.14). */
  model: string
  /** score_date, as published. */
  scoreDate: string
  scores: Map<string, EpssScore>
}

const META =
  /^#model_version:([^,\s]{1,64}),score_date:(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2}))$/
const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i

function unit(text: string): number | null {
  if (!NUMBER.test(text)) return null
  const n = Number(text)
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : null
}

/**
 * Parses the text of an EPSS scores file. Refuses a missing or malformed first line, another
 * header, a line with another number of fields, a CVE that is not one or is listed twice, and a
 * score or percentile outside 0–1, naming the line (1-based, as an editor shows it).
 */
export function parseEpssScores(
  text: string,
): { ok: true; scores: EpssScores } | { ok: false; problem: FeedProblem } {
  const refuse = (line: number, what: string) => ({
    ok: false as const,
    problem: { message: `The EPSS file's line ${line} ${what}.` },
  })
  const lines = text.split(/\r?\n/)
  if (lines.at(-1) === '') lines.pop()
  const meta = META.exec(lines[0]?.trim() ?? '')
  if (!meta)
    return refuse(1, 'must be #model_version:…,score_date:… (the first line FIRST publishes)')
  const scoreDate = meta[2]!.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')
  if (Number.isNaN(Date.parse(scoreDate)))
    return refuse(1, 'has a score_date that is not a real date')
  if (lines[1]?.trim() !== 'cve,epss,percentile')
    return refuse(2, 'must be the header cve,epss,percentile')
  const scores = new Map<string, EpssScore>()
  for (let i = 2; i < lines.length; i++) {
    const fields = lines[i]!.split(',')
    if (fields.length !== 3)
      return refuse(i + 1, `has ${fields.length} field${fields.length === 1 ? '' : 's'}, not 3`)
    const [cve, e, p] = fields as [string, string, string]
    if (!CVE_ID.test(cve))
      return refuse(i + 1, `does not start with a CVE identifier (${cve.slice(0, 40)})`)
    if (scores.has(cve)) return refuse(i + 1, `lists ${cve} a second time`)
    const epss = unit(e.trim())
    if (epss === null)
      return refuse(i + 1, `has an EPSS score that is not a number from 0 to 1 (${e.slice(0, 40)})`)
    const percentile = unit(p.trim())
    if (percentile === null)
      return refuse(i + 1, `has a percentile that is not a number from 0 to 1 (${p.slice(0, 40)})`)
    scores.set(cve, { epss, percentile })
  }
  return { ok: true, scores: { model: meta[1]!, scoreDate, scores } }
}
