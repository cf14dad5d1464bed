import { computed } from 'vue'
import { useRoute, useRouter, type LocationQuery } from 'vue-router'
import type { z } from 'zod'
import { findOperation } from '@contract/catalog'
import { FIRST_SEEN_AFTER_KEY, FIRST_SEEN_BEFORE_KEY } from '@/resources/findingFilterKeys'

/** The address keys of the vulnerabilities list's first-seen bounds (the query's names). */
export { FIRST_SEEN_AFTER_KEY, FIRST_SEEN_BEFORE_KEY }
type BoundKey = typeof FIRST_SEEN_AFTER_KEY | typeof FIRST_SEEN_BEFORE_KEY

const text = (v: LocationQuery[string]): string =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : ''

const schema = (key: BoundKey) =>
  (findOperation('vulnerabilities.list')?.query as unknown as { shape?: Record<string, z.ZodType> })
    ?.shape?.[key]

/** The instant an address names as `key`, when the list's schema takes it; else null. */
export function firstSeenBoundOf(query: LocationQuery, key: BoundKey): string | null {
  const raw = text(query[key]).trim()
  return raw && schema(key)?.safeParse(raw).success ? raw : null
}

/** The instant an address names as `first_seen_after`, when the list's schema takes it; else null. */
export function firstSeenAfterOf(query: LocationQuery): string | null {
  return firstSeenBoundOf(query, FIRST_SEEN_AFTER_KEY)
}

const ms = (s: string) => Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s)

/**
 * A first-seen range narrowed to findings first seen at or after `after` and before `before` too:
 * the later of the two lower bounds and the earlier of the two upper ones (every filter holds).
 * Without them, the range as it is.
 */
export function narrowedRange(
  range: Record<string, string>,
  after: string | null,
  before: string | null = null,
): Record<string, string> {
  let out = range
  const own = range[FIRST_SEEN_AFTER_KEY]
  if (after && !(own && ms(own) >= ms(after))) out = { ...out, [FIRST_SEEN_AFTER_KEY]: after }
  const upper = range[FIRST_SEEN_BEFORE_KEY]
  if (before && !(upper && ms(upper) <= ms(before)))
    out = { ...out, [FIRST_SEEN_BEFORE_KEY]: before }
  return out
}

/**
 * The vulnerabilities list's "first seen after" and "first seen before" filters, which the
 * dashboard's counts set (the moment counted from, and the moment they were counted at): kept in
 * the address by their own names, shown as removable chips (the list has no control for them),
 * sent with the page's other first-seen range.
 */
export function useFirstSeenFilter() {
  const route = useRoute()
  const router = useRouter()
  const after = computed(() => firstSeenBoundOf(route.query, FIRST_SEEN_AFTER_KEY))
  const before = computed(() => firstSeenBoundOf(route.query, FIRST_SEEN_BEFORE_KEY))
  function clear(key: BoundKey = FIRST_SEEN_AFTER_KEY): void {
    const rest = Object.fromEntries(
      Object.entries(route.query).filter(([k]) => k !== key && k !== 'page'),
    )
    void router.replace({ query: rest })
  }
  return { after, before, clear }
}
