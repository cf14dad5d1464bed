import type { RouteLocationRaw } from 'vue-router'
import { countOf, type ChartRow } from '@/components/charts/counts'
import { SEVERITIES, SEVERITY_COLORS, SEVERITY_LABELS } from '@/components/charts/severity'
import { detailRoute, resourceByKey } from '@/resources'

/** Filters of the vulnerabilities list a chart can drill down with (names of its query). */
export interface VulnerabilityFilter {
  severity?: (typeof SEVERITIES)[number]
  pci_compliant?: 'true' | 'false'
  scan_id?: string
  host_id?: string
}

/** The vulnerabilities list with `filter` pre-set (the list reads it from the address). */
export function vulnerabilitiesWhere(filter: VulnerabilityFilter = {}): RouteLocationRaw {
  const query = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined))
  return { name: 'vulnerabilities', query }
}

/** The total widget's answer as one bar per severity, worst first, each leading to its findings. */
export function totalRows(counts: Partial<Record<string, unknown>> | null | undefined): ChartRow[] {
  return SEVERITIES.map((severity) => ({
    key: severity,
    label: SEVERITY_LABELS[severity],
    value: countOf(counts?.[severity]),
    color: SEVERITY_COLORS[severity],
    to: vulnerabilitiesWhere({ severity }),
  }))
}

/** Colours of the PCI bars: failing findings in the severity red, passing ones green. */
export const PCI_COLORS = { fail: '#e11d48', pass: '#16a34a' } as const

/** The PCI widget's answer as two bars, failing first, each leading to those findings. */
export function pciRows(answer: { pass?: unknown; fail?: unknown } | null | undefined): ChartRow[] {
  return [
    {
      key: 'fail',
      label: 'Fail PCI DSS',
      value: countOf(answer?.fail),
      color: PCI_COLORS.fail,
      to: vulnerabilitiesWhere({ pci_compliant: 'false' }),
    },
    {
      key: 'pass',
      label: 'Pass PCI DSS',
      value: countOf(answer?.pass),
      color: PCI_COLORS.pass,
      to: vulnerabilitiesWhere({ pci_compliant: 'true' }),
    },
  ]
}

/** A row of the top widget's answer, as far as the chart needs it. */
interface TopRow {
  id: string
  attributes: { title?: unknown; severity?: unknown; cvss_score?: unknown; host_ip?: unknown }
}

/**
 * The top widget's findings as bars of their CVSS score, highest first: named by title and host
 * (the same finding on two hosts is two rows), coloured by severity, each leading to its page.
 */
export function topRows(rows: readonly TopRow[] | null | undefined): ChartRow[] {
  const vulnerabilities = resourceByKey('vulnerabilities')
  return (rows ?? []).map(({ id, attributes: a }) => {
    const severity = SEVERITIES.find((s) => s === a.severity) ?? 'info'
    const score = Number(a.cvss_score)
    const host = typeof a.host_ip === 'string' && a.host_ip ? ` (${a.host_ip})` : ''
    return {
      key: id,
      label: `${typeof a.title === 'string' && a.title ? a.title : id}${host}`,
      value: Number.isFinite(score) ? Math.min(10, Math.max(0, score)) : 0,
      color: SEVERITY_COLORS[severity],
      ...(vulnerabilities ? { to: detailRoute(vulnerabilities, id) } : {}),
    }
  })
}
