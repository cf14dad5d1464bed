import type { RouteLocationRaw } from 'vue-router'
import { cvesOf, vulnerabilityKey } from '@contract/findings/identity'
import { countOf, type ChartRow } from '@/components/charts/counts'
import { SEVERITIES, SEVERITY_COLORS, SEVERITY_LABELS } from '@/components/kit/severity'
import { countedWords } from '@/composables/countedNote'
import { FIRST_SEEN_BEFORE_KEY } from '@/resources/findingFilterKeys'
import { detailRoute, resourceByKey } from '@/resources'

/** Filters of the vulnerabilities list a chart can drill down with (names of its query). */
export interface VulnerabilityFilter {
  severity?: (typeof SEVERITIES)[number]
  pci_compliant?: 'true' | 'false'
  scan_id?: string
  host_id?: string
  cve_id?: string
}

/** The vulnerabilities list with `filter` pre-set (the list reads it from the address). */
export function vulnerabilitiesWhere(filter: VulnerabilityFilter = {}): RouteLocationRaw {
  const query = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined))
  return { name: 'vulnerabilities', query }
}

/**
 * The findings a widget's count was made of (issue 36 §2): `filter`, first seen before the moment
 * the widget was read (what was found since is not its), and the count itself, so the list says
 * when it holds another number now ("10 now, 8 when counted"). Without that moment, the filter.
 */
export function countedFindings(
  filter: VulnerabilityFilter,
  count: number,
  countedAt: string | null,
): RouteLocationRaw {
  if (!countedAt) return vulnerabilitiesWhere(filter)
  const where = vulnerabilitiesWhere(filter) as { name: string; query: Record<string, string> }
  return {
    ...where,
    query: {
      ...where.query,
      [FIRST_SEEN_BEFORE_KEY]: countedAt,
      ...countedWords(count, countedAt),
    },
  }
}

/**
 * The total widget's answer as one bar per severity, worst first, each leading to the findings it
 * counted (read at `countedAt`).
 */
export function totalRows(
  counts: Partial<Record<string, unknown>> | null | undefined,
  countedAt: string | null = null,
): ChartRow[] {
  return SEVERITIES.map((severity) => {
    const value = countOf(counts?.[severity])
    return {
      key: severity,
      label: SEVERITY_LABELS[severity],
      value,
      color: SEVERITY_COLORS[severity],
      to: countedFindings({ severity }, value, countedAt),
    }
  })
}

/** Colours of the PCI bars: failing findings in the severity red, passing ones green. */
export const PCI_COLORS = { fail: '#e11d48', pass: '#16a34a' } as const

/**
 * The PCI widget's answer as two bars, failing first, each leading to the findings it counted
 * (read at `countedAt`).
 */
export function pciRows(
  answer: { pass?: unknown; fail?: unknown } | null | undefined,
  countedAt: string | null = null,
): ChartRow[] {
  const fail = countOf(answer?.fail)
  const pass = countOf(answer?.pass)
  return [
    {
      key: 'fail',
      label: 'Fail PCI DSS',
      value: fail,
      color: PCI_COLORS.fail,
      to: countedFindings({ pci_compliant: 'false' }, fail, countedAt),
    },
    {
      key: 'pass',
      label: 'Pass PCI DSS',
      value: pass,
      color: PCI_COLORS.pass,
      to: countedFindings({ pci_compliant: 'true' }, pass, countedAt),
    },
  ]
}

/** A row of the top widget's answer (one finding on one host), as far as the chart needs it. */
interface TopRow {
  id: string
  attributes: {
    title?: unknown
    severity?: unknown
    cvss_score?: unknown
    cve_ids?: unknown
    host_id?: unknown
    host_ip?: unknown
  }
}

const textOf = (v: unknown) => (typeof v === 'string' ? v.trim() : '')

/**
 * What makes two rows the same finding (docs/decisions.md, "The same finding"): its title (case
 * and spacing aside) and its CVE identifiers; the host, port and scan it was seen on are not part
 * of it. A row with neither is only itself.
 */
export function findingKey(row: TopRow): string {
  return vulnerabilityKey(row.attributes) ?? `id:${row.id}`
}

/**
 * The top widget's rows as bars, one per finding (not one per host): highest CVSS score first, at
 * most `limit`, named by title with the number of hosts it was seen on, the full name and CVEs on
 * hover, coloured by its worst severity. A bar leads to the finding's page when it was seen on one
 * host, else to the findings with its CVE (every host), else to its highest-scored row.
 */
export function topRows(rows: readonly TopRow[] | null | undefined, limit = 8): ChartRow[] {
  const vulnerabilities = resourceByKey('vulnerabilities')
  const groups = new Map<string, TopRow[]>()
  for (const row of rows ?? []) {
    const key = findingKey(row)
    groups.set(key, [...(groups.get(key) ?? []), row])
  }
  const scoreOf = (r: TopRow) => {
    const n = Number(r.attributes.cvss_score)
    return Number.isFinite(n) ? Math.min(10, Math.max(0, n)) : 0
  }
  const severityOf = (r: TopRow) =>
    SEVERITIES.findIndex((s) => s === r.attributes.severity) + 1 || SEVERITIES.length
  return [...groups.entries()]
    .map(([key, found]) => {
      const best = [...found].sort((a, b) => scoreOf(b) - scoreOf(a))[0]
      const worst = SEVERITIES[Math.min(...found.map(severityOf)) - 1]
      const hosts = new Set(found.map((r) => textOf(r.attributes.host_id) || r.id)).size
      const name = textOf(best.attributes.title) || best.id
      const cves = cvesOf(best.attributes.cve_ids)
      const on = hosts > 1 ? ` — ${hosts} hosts` : ''
      const to =
        hosts === 1 || !cves.length
          ? vulnerabilities && detailRoute(vulnerabilities, best.id)
          : vulnerabilitiesWhere({ cve_id: cves[0] })
      return {
        key,
        label: `${name}${on}`,
        title: `${name}${cves.length ? ` (${cves.join(', ')})` : ''}${hosts > 1 ? `, on ${hosts} hosts` : ''}`,
        value: scoreOf(best),
        color: SEVERITY_COLORS[worst],
        ...(to ? { to } : {}),
      }
    })
    .sort((a, b) => b.value - a.value)
    .slice(0, limit)
}
