import { detailRoute, resourceByKey } from '@/resources'
import { useClock } from '@/composables/clock'

/** Where a scan's or a host's detail page is (the registry's routes). */
export function detailOf(resourceKey: 'scans' | 'hosts', id: string) {
  const resource = resourceByKey(resourceKey)
  return resource ? detailRoute(resource, id) : { name: 'dashboard' }
}

/** How many completed scans the dashboard asks for (one read, shared by the panels using it). */
export const RECENT_LIMIT = 5

/** The list page of a group (the registry's list routes are named after the group). */
export const listOf = (group: 'scans' | 'hosts') => ({ name: group })

/** Now, ticking once a minute (relative times re-render). */
export function useMinuteClock() {
  return useClock(60_000)
}
