import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import { recordOf, type RecordOf } from '@/data/envelope'
import { useAppStore } from './app'
import { useStoreOperation } from './storeOperation'

/** The current user as the service shows it (wire names; catalog/user.ts userAttributes). */
export type CurrentUser = RecordOf<'user.show'>

/** The current user's role and permission strings (`<area>.<verb>`). */
export type UserPermissions = RecordOf<'user.permissions'>

/**
 * The signed-in user of this window's account: profile and permissions, read through the data
 * layer (user.show and user.permissions, shared with any view reading them). Everything shown is
 * the current account's: after a switch nothing of the previous account stays, and a late answer
 * lands in its own account's entry. A write to the `user` group refreshes them while a view
 * `follow`s the store.
 */
export const useCurrentUserStore = defineStore('currentUser', () => {
  const app = useAppStore()
  /** The account whose user deleted their own account at the service (forgotten on a switch). */
  const deletedIn = ref<string | null>(null)
  /** True once the user deleted their own account at the service (until the account changes). */
  const deletedAtService = computed(
    () => deletedIn.value !== null && deletedIn.value === app.accountId,
  )
  // Once the user is gone at the service, nothing is asked for them any more. Derived from the
  // account, so a switch enables the reads in the same step as it changes their keys.
  const enabled = () => !deletedAtService.value
  const shown = useStoreOperation('user.show', {}, { enabled })
  const allowed = useStoreOperation('user.permissions', {}, { enabled })

  watch(
    () => app.accountId,
    () => {
      deletedIn.value = null
    },
    { flush: 'sync' },
  )

  const user = computed<CurrentUser | null>(() => recordOf(shown.data.value) ?? null)
  const permissions = computed<UserPermissions | null>(() => recordOf(allowed.data.value) ?? null)
  const loading = computed(() => shown.loading.value || allowed.loading.value)

  /** Asks for the profile and permissions again; concurrent callers share one request. */
  async function load(): Promise<void> {
    await Promise.all([shown.load(), allowed.load()])
  }

  /** Asks for what is missing, stale or failed; later callers get what is loaded. */
  async function ensureLoaded(): Promise<void> {
    await Promise.all([shown.load(false), allowed.load(false)])
  }

  /** Keeps the profile and permissions current while the calling component lives. */
  function follow(): void {
    shown.follow()
    allowed.follow()
  }

  /** Takes a fresh copy of the user from a write's answer (update, 2FA disable, default method). */
  function setUser(next: CurrentUser): void {
    shown.set({ ...shown.data.value, data: next })
  }

  /** True when the current user holds `permission` (false until permissions are loaded). */
  function can(permission: string): boolean {
    return permissions.value?.permissions.includes(permission) ?? false
  }

  /** Records that the user deleted their own account at the service (reads in flight are cancelled). */
  function markDeleted(): void {
    deletedIn.value = app.accountId
  }

  return {
    user,
    permissions,
    error: shown.error,
    permissionsError: allowed.error,
    loading,
    deletedAtService,
    load,
    ensureLoaded,
    follow,
    setUser,
    can,
    markDeleted,
  }
})
