/** Severities from worst to mildest, as the service names them. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const

/** One severity. */
export type Severity = (typeof SEVERITIES)[number]

/** Counts of findings per severity (the catalog's severity_counts). */
export type SeverityCounts = Record<Severity, number>

/** How a severity is named on screen. */
export const SEVERITY_LABELS: Record<Severity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
}

/** Bar colours (distinct in lightness as well as hue, readable on light and dark backgrounds). */
export const SEVERITY_COLORS: Record<Severity, string> = {
  critical: '#9f1239',
  high: '#e11d48',
  medium: '#f59e0b',
  low: '#3b82f6',
  info: '#94a3b8',
}

/** The counts in severity order, missing or odd values read as 0. */
export function severityRows(counts: Partial<Record<string, unknown>> | null | undefined) {
  return SEVERITIES.map((severity) => {
    const n = Number(counts?.[severity])
    return {
      severity,
      label: SEVERITY_LABELS[severity],
      count: Number.isFinite(n) && n > 0 ? Math.round(n) : 0,
    }
  })
}
