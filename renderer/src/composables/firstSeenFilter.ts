import { computed } from 'vue'
import { useRoute, useRouter, type LocationQuery } from 'vue-router'
import type { z } from 'zod'
import { findOperation } from '@contract/catalog'
import { FIRST_SEEN_AFTER_KEY } from './findingFilterKeys'

/** The address key of the vulnerabilities list's "first seen after" filter (the query's name). */
export { FIRST_SEEN_AFTER_KEY }

const text = (v: LocationQuery[string]): string =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : ''

const schema = () =>
  (findOperation('vulnerabilities.list')?.query as unknown as { shape?: Record<string, z.ZodType> })
    ?.shape?.[FIRST_SEEN_AFTER_KEY]

/** The instant an address names as `first_seen_after`, when the list's schema takes it; else null. */
export function firstSeenAfterOf(query: LocationQuery): string | null {
  const raw = text(query[FIRST_SEEN_AFTER_KEY]).trim()
  return raw && schema()?.safeParse(raw).success ? raw : null
}

const ms = (s: string) => Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s)

/**
 * A first-seen range narrowed to findings first seen at or after `after` too: the later of the
 * two lower bounds (both filters hold). Without `after`, the range as it is.
 */
export function narrowedRange(
  range: Record<string, string>,
  after: string | null,
): Record<string, string> {
  if (!after) return range
  const own = range[FIRST_SEEN_AFTER_KEY]
  if (own && ms(own) >= ms(after)) return range
  return { ...range, [FIRST_SEEN_AFTER_KEY]: after }
}

/**
 * The vulnerabilities list's "first seen after" filter, which the dashboard's "Since your last
 * visit" links set: kept in the address by its own name, shown as a removable chip (the list has
 * no control for it), sent with the page's other first-seen range.
 */
export function useFirstSeenFilter() {
  const route = useRoute()
  const router = useRouter()
  const after = computed(() => firstSeenAfterOf(route.query))
  function clear(): void {
    const rest = Object.fromEntries(
      Object.entries(route.query).filter(([k]) => k !== FIRST_SEEN_AFTER_KEY && k !== 'page'),
    )
    void router.replace({ query: rest })
  }
  return { after, clear }
}
