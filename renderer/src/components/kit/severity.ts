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

/**
 * The severities' colours per theme: critical purple and high red (distinct in hue, not only in
 * lightness), each at least 4.5:1 (WCAG AA for text) against the theme's backgrounds and against
 * the text of a tag filled with it (SEVERITY_TEXT), so bars and tags read in both themes.
 * `styles/app.css` sets them as the `--sd-severity-*` variables (a test keeps the two equal).
 */
export const SEVERITY_PALETTE: Record<'light' | 'dark', Record<Severity, string>> = {
  light: {
    critical: '#6b21a8',
    high: '#b91c1c',
    medium: '#b45309',
    low: '#1d4ed8',
    info: '#475569',
  },
  dark: {
    critical: '#c084fc',
    high: '#f87171',
    medium: '#fbbf24',
    low: '#60a5fa',
    info: '#94a3b8',
  },
}

/** Text on a tag filled with a severity's colour, per theme (`--sd-severity-text`). */
export const SEVERITY_TEXT = { light: '#ffffff', dark: '#0a0a0a' } as const

/**
 * A severity's colour in the current theme, as a CSS variable (with the light one as fallback):
 * charts resolve it when they draw (components/charts/theme.ts `paint`); tags are filled by
 * app.css' rule for a dark tag's `data-severity`.
 */
export const SEVERITY_COLORS: Record<Severity, string> = Object.fromEntries(
  SEVERITIES.map((s) => [s, `var(--sd-severity-${s}, ${SEVERITY_PALETTE.light[s]})`]),
) as Record<Severity, string>

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
