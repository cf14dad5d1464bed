import type { RouteLocationRaw } from 'vue-router'

/** One bar of a CountsChart (and one row of its table). */
export interface ChartRow {
  /** Stable key (a severity, a state, an id). */
  key: string
  /** The name shown beside the bar and in the table. */
  label: string
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
