import type { RouteLocationRaw } from 'vue-router'
import { countOf, type ChartRow } from '@/components/charts/counts'

/** The exceptions list with a filter pre-set (the list reads it from the address). */
export function exceptionsWhere(filter: { state?: string; kind?: string } = {}): RouteLocationRaw {
  const query = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined))
  return { name: 'exceptions', query }
}

/** Colours of the states: waiting amber, in force blue, lapsed grey (distinct in lightness too). */
export const STATE_COLORS = { pending: '#d97706', active: '#2563eb', expired: '#94a3b8' } as const

/** Colours of the kinds. */
export const KIND_COLORS = { accepted_risk: '#7c3aed', false_positive: '#0891b2' } as const

const STATES = [
  ['active', 'Active'],
  ['pending', 'Pending'],
  ['expired', 'Expired'],
] as const

const KINDS = [
  ['accepted_risk', 'Accepted risk'],
  ['false_positive', 'False positive'],
] as const

/** exceptions.statistics' counts by state as bars, each leading to those exceptions. */
export function stateRows(
  byState: Partial<Record<string, unknown>> | null | undefined,
): ChartRow[] {
  return STATES.map(([state, label]) => ({
    key: state,
    label,
    value: countOf(byState?.[state]),
    color: STATE_COLORS[state],
    to: exceptionsWhere({ state }),
  }))
}

/** exceptions.statistics' counts by kind as bars, each leading to those exceptions. */
export function kindRows(byKind: Partial<Record<string, unknown>> | null | undefined): ChartRow[] {
  return KINDS.map(([kind, label]) => ({
    key: kind,
    label,
    value: countOf(byKind?.[kind]),
    color: KIND_COLORS[kind],
    to: exceptionsWhere({ kind }),
  }))
}
