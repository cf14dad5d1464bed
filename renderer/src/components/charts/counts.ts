import type { RouteLocationRaw } from 'vue-router'

/** One bar of a CountsChart (and one row of its table). */
export interface ChartRow {
  /** Stable key (a severity, a state, an id). */
  key: string
  /** The name shown beside the bar and in the table (cut beside the bar when long). */
  label: string
  /** The whole name, shown on hover over the bar (the label by default). */
  title?: string
  value: number
  color: string
  /** Where clicking the bar, or the row's link in the table, leads (a drill-down). */
  to?: RouteLocationRaw
}

/** A count from an answer: missing, odd or negative values read as 0. */
export function countOf(value: unknown): number {
  const n = Number(value)
  return Number.isFinite(n) && n > 0 ? Math.round(n) : 0
}

/** `text` made safe to put in HTML (a chart's tooltip is HTML): service text is data. */
export function asHtmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** A bar's tooltip: its whole name and its value under the value's header, as safe HTML. */
export function tooltipOf(row: ChartRow, valueHeader: string): string {
  return `${asHtmlText(row.title ?? row.label)}<br>${asHtmlText(valueHeader)}: ${row.value}`
}
