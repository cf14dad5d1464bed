import { computed, type ComputedRef } from 'vue'
import { isTimeZone } from '@contract/catalog/schedules'
import { useRecord } from '@/data/useRecord'

/** This computer's IANA time zone, or null when the runtime does not say. */
export function systemTimeZone(): string | null {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
  return zone && isTimeZone(zone) ? zone : null
}

/**
 * The time zone a new schedule starts in: the current user's own (their profile at the service),
 * else this computer's; UTC only when neither is known. The profile is the data layer's read of
 * `user.show`, shared with the screens that show it.
 */
export function usePreferredTimeZone(): ComputedRef<string> {
  const me = useRecord('user.show', {}, { staleTime: 5 * 60_000 })
  return computed(() => {
    const own = me.attributes.value?.time_zone
    return (own && isTimeZone(own) ? own : null) ?? systemTimeZone() ?? 'UTC'
  })
}
