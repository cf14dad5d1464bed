import { computed } from 'vue'
import { detailRoute, resourceByKey } from '@/resources'
import { useClock } from '@/composables/clock'
import type { OperationState } from '@/data/useOperation'
import { useAppStore } from '@/stores/app'

/** Where a scan's or a host's detail page is (the registry's routes). */
export function detailOf(resourceKey: 'scans' | 'hosts', id: string) {
  const resource = resourceByKey(resourceKey)
  return resource ? detailRoute(resource, id) : { name: 'dashboard' }
}

/** How many completed scans the dashboard asks for (one read, shared by the panels using it). */
export const RECENT_LIMIT = 5

/** The list page of a group (the registry's list routes are named after the group). */
export const listOf = (group: 'scans' | 'hosts') => ({ name: group })

/** The account's release, for a panel's "not in this release" line. */
export function useRelease() {
  const app = useAppStore()
  return computed(() => app.account?.release ?? null)
}

/** Now, ticking once a minute (relative times re-render). */
export function useMinuteClock() {
  return useClock(60_000)
}

/** A read's state as DashboardPanel's props (`v-bind`): available, loading, error, freshness. */
export function panelStateOf<T>(read: OperationState<T>) {
  return {
    available: read.available.value,
    loading: read.loading.value,
    showLoading: read.showLoading.value,
    error: read.error.value,
    loaded: !!read.data.value,
    fromCache: read.fromCache.value,
    fetchedAt: read.fetchedAt.value,
  }
}
