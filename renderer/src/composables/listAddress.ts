import { watch } from 'vue'
import { useRoute, useRouter, type LocationQuery } from 'vue-router'
import type { z } from 'zod'
import { findOperation, type OperationId } from '@contract/catalog'
import type { ListState } from '@/data/useOperationList'

/** Page sizes a list offers (the pager's choices). */
export const PAGE_SIZES = [10, 25, 50, 100] as const

/** What a list's state looks like when nothing was chosen. */
export interface ListDefaults {
  sort: string
  perPage: number
}

/** The keys a list keeps in the address besides its filters' own names. */
const OWN_KEYS = ['search', 'sort', 'page', 'per_page'] as const

type Shape = Record<string, z.ZodType>
const shapeOf = (op: OperationId): Shape =>
  (findOperation(op)?.query as unknown as { shape?: Shape } | undefined)?.shape ?? {}

/** An address's text as the value the query schema takes ('true' → true, '5' → 5), or nothing. */
function valueFor(schema: z.ZodType | undefined, raw: string): unknown {
  if (!schema) return undefined
  const candidates: unknown[] = [raw]
  if (raw === 'true' || raw === 'false') candidates.push(raw === 'true')
  if (raw.trim() !== '' && Number.isFinite(Number(raw))) candidates.push(Number(raw))
  return candidates.find((c) => schema.safeParse(c).success)
}

const text = (v: LocationQuery[string]): string =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : ''

/**
 * A list's state as an address names it: filters by their own names (`severity=high`), `search`,
 * `sort`, `page`, `per_page`. A value the list's query schema refuses is left out, as if absent.
 */
export function stateFromQuery(
  query: LocationQuery,
  op: OperationId,
  names: readonly string[],
  defaults: ListDefaults,
): ListState {
  const shape = shapeOf(op)
  const filters: Record<string, unknown> = {}
  for (const name of names) {
    const raw = text(query[name])
    const value = raw ? valueFor(shape[name], raw) : undefined
    if (value !== undefined) filters[name] = value
  }
  const page = Number(text(query.page))
  const perPage = Number(text(query.per_page))
  const sort = text(query.sort)
  return {
    filters,
    search: text(query.search).trim(),
    sort: sort && valueFor(shape.sort, sort) !== undefined ? sort : defaults.sort,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    perPage: (PAGE_SIZES as readonly number[]).includes(perPage) ? perPage : defaults.perPage,
  }
}

/** The address's words for a list's state: only what differs from the defaults. */
export function queryFromState(state: ListState, defaults: ListDefaults): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(state.filters))
    if ((typeof v === 'string' && v) || typeof v === 'number' || typeof v === 'boolean')
      out[k] = String(v)
  if (state.search) out.search = state.search
  if (state.sort && state.sort !== defaults.sort) out.sort = state.sort
  if (state.page > 1) out.page = String(state.page)
  if (state.perPage !== defaults.perPage) out.per_page = String(state.perPage)
  return out
}

/** The address's query without a list's keys (what other parts of the page keep there: `tab`). */
function othersOf(query: LocationQuery, names: readonly string[]): LocationQuery {
  const drop = new Set<string>([...OWN_KEYS, ...names])
  return Object.fromEntries(Object.entries(query).filter(([k]) => !drop.has(k)))
}

const same = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort())

/** A list the address follows: its state, put back from a state, and what it names. */
export interface AddressedList {
  listState: { value: ListState }
  restore(state: ListState): void
}

/**
 * Keeps a list's filters, search, sort and page in the address while `enabled` (the page's main
 * list, the tab on screen): a change in the list replaces the address (no history entry per
 * filter, so Back leaves the list; the list's entry holds its latest state for Back, a reload or
 * a copied address), and an address changed by hand or by history puts the list back as it says.
 * Only on the page the list was made on: while leaving it, the next page's address is not read.
 */
export function useListAddress(
  list: AddressedList,
  op: OperationId,
  names: readonly string[],
  defaults: ListDefaults,
  enabled: () => boolean,
): void {
  const route = useRoute()
  const router = useRouter()
  const path = route.path
  const here = () => enabled() && route.path === path

  // The address → the list (typed, Back/Forward, a tab newly on screen).
  watch(
    () =>
      here() ? queryFromState(stateFromQuery(route.query, op, names, defaults), defaults) : null,
    (wanted) => {
      if (!wanted || same(wanted, queryFromState(list.listState.value, defaults))) return
      list.restore(stateFromQuery(route.query, op, names, defaults))
    },
    { immediate: true },
  )
  // The list → the address.
  watch(
    () => (here() ? queryFromState(list.listState.value, defaults) : null),
    (shown) => {
      if (!shown) return
      const current = queryFromState(stateFromQuery(route.query, op, names, defaults), defaults)
      if (same(shown, current)) return
      void router.replace({ query: { ...othersOf(route.query, names), ...shown } })
    },
  )
}
