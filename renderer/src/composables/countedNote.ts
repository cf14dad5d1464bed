import { computed, watch } from 'vue'
import { useRoute, useRouter, type LocationQuery } from 'vue-router'
import { formatDateTime } from '@/utils/format'
import { COUNTED_AT_KEY, COUNTED_KEY } from '@/resources/findingFilterKeys'

// A count that leads to a list (the dashboard's) carries what it said and when, beside the very
// query it counted (`counted=8&counted_at=…`): the list says when it no longer holds as many —
// "10 now, 8 when counted" — rather than leave the analyst to doubt one number or the other.

const text = (v: LocationQuery[string]): string =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : ''

/** The count an address carries and when it was made, or null. */
export function countedOf(query: LocationQuery): { count: number; at: string | null } | null {
  const raw = text(query[COUNTED_KEY])
  if (!/^\d{1,9}$/.test(raw)) return null
  const at = text(query[COUNTED_AT_KEY])
  return { count: Number(raw), at: at && Number.isFinite(Date.parse(at)) ? at : null }
}

/** The address words a link adds for the count it was made from (none when it is not known). */
export function countedWords(count: number | null, at: string | null): Record<string, string> {
  if (count === null || !Number.isInteger(count) || count < 0) return {}
  return { [COUNTED_KEY]: String(count), ...(at ? { [COUNTED_AT_KEY]: at } : {}) }
}

/** What a list says when its total is no longer the count that opened it; null when it is. */
export function movedWords(total: number, counted: { count: number; at: string | null }) {
  if (total === counted.count) return null
  return `${total} now, ${counted.count} when counted${counted.at ? ` (${formatDateTime(counted.at)})` : ''}.`
}

/** The address keys that do not change which rows a list holds. */
const NOT_THE_ROWS = new Set([
  'page',
  'sort',
  'per_page',
  'columns',
  'tab',
  COUNTED_KEY,
  COUNTED_AT_KEY,
])
const rowsKey = (query: LocationQuery) =>
  JSON.stringify(
    Object.entries(query)
      .filter(([k]) => !NOT_THE_ROWS.has(k))
      .sort(([a], [b]) => a.localeCompare(b)),
  )

/**
 * The count the list was opened from, while the list still asks what was counted: once its
 * filters or search change, the count says nothing about it and leaves the address.
 */
export function useCountedNote() {
  const route = useRoute()
  const router = useRouter()
  const path = route.path
  const counted = computed(() => countedOf(route.query))
  let opened = rowsKey(route.query)
  watch(
    () => (route.path === path ? rowsKey(route.query) : null),
    (key) => {
      if (key === null || key === opened) return
      opened = key
      if (!counted.value) return
      const rest = Object.fromEntries(
        Object.entries(route.query).filter(([k]) => k !== COUNTED_KEY && k !== COUNTED_AT_KEY),
      )
      void router.replace({ query: rest })
    },
  )
  /** What the list says beside its total `total` (known), or null. */
  const noteFor = (total: number, known: boolean): string | null =>
    known && counted.value ? movedWords(total, counted.value) : null
  return { counted, noteFor }
}
