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

type Counts = Partial<Record<string, unknown>> | null | undefined

/** Bars of one of exceptions.statistics' counts, each leading to the exceptions it counts. */
function barsOf<K extends string>(
  by: 'state' | 'kind',
  names: readonly (readonly [K, string])[],
  colors: Record<K, string>,
  counts: Counts,
): ChartRow[] {
  return names.map(([key, label]) => ({
    key,
    label,
    value: countOf(counts?.[key]),
    color: colors[key],
    to: exceptionsWhere({ [by]: key }),
  }))
}

/** exceptions.statistics' counts by state as bars, each leading to those exceptions. */
export const stateRows = (byState: Counts) => barsOf('state', STATES, STATE_COLORS, byState)

/** exceptions.statistics' counts by kind as bars, each leading to those exceptions. */
export const kindRows = (byKind: Counts) => barsOf('kind', KINDS, KIND_COLORS, byKind)
