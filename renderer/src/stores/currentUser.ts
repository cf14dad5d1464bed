import { defineStore } from 'pinia'
import { ref, watch } from 'vue'
import type { InputOf, OperationId, OutputOf } from '@contract/catalog'
import type { AppError, Result } from '@contract/errors'
import { callApi, cancelRequest, newRequestId, type ApiAnswer } from '@/bridge/bridge'
import { useAppStore } from './app'

/** The current user as the service shows it (wire names; catalog/user.ts userAttributes). */
export type CurrentUser = OutputOf<'user.show'>['data']

/** The current user's role and permission strings (`<area>.<verb>`). */
export type UserPermissions = OutputOf<'user.permissions'>['data']

/** A call that was not sent because no account is active. */
const NO_ACCOUNT: AppError = { code: 'UNKNOWN_ACCOUNT', message: 'No account is active.' }

/**
 * The signed-in user of the ACTIVE account: profile, permissions, and a `call` that drops answers
 * which arrive after the active account changed. Everything resets when the active account
 * changes; `epoch` counts the resets so views can rebuild their local state.
 */
export const useCurrentUserStore = defineStore('currentUser', () => {
  const app = useAppStore()
  const ownerId = ref<string | null>(app.accountId)
  const epoch = ref(0)
  const user = ref<CurrentUser | null>(null)
  const permissions = ref<UserPermissions | null>(null)
  const error = ref<AppError | null>(null)
  const permissionsError = ref<AppError | null>(null)
  const loading = ref(false)
  /** True once the user deleted their own account at the service (until the account changes). */
  const deletedAtService = ref(false)
  const pendingReads = new Set<string>()
  let inflight: Promise<void> | null = null

  function reset(accountId: string | null): void {
    for (const requestId of pendingReads) cancelRequest(requestId)
    pendingReads.clear()
    ownerId.value = accountId
    epoch.value++
    user.value = null
    permissions.value = null
    error.value = null
    permissionsError.value = null
    loading.value = false
    deletedAtService.value = false
    inflight = null
  }

  watch(
    () => app.accountId,
    (id) => {
      if (id !== ownerId.value) reset(id)
    },
    { flush: 'sync' },
  )

  /**
   * Calls a catalog operation for the active account. Resolves to null when the active account
   * changed (or the store was reset) before the answer came: the caller drops it. `read: true`
   * marks a request that is cancelled on such a change (only for reads: a write may have landed).
   */
  async function call<Id extends OperationId>(
    op: Id,
    input?: InputOf<Id>,
    options: { read?: boolean } = {},
  ): Promise<Result<ApiAnswer<Id>> | null> {
    const accountId = app.accountId
    if (!accountId) return { ok: false, error: NO_ACCOUNT }
    const started = epoch.value
    const requestId = options.read ? newRequestId() : undefined
    if (requestId) pendingReads.add(requestId)
    try {
      const result = await callApi(accountId, op, input, requestId)
      if (epoch.value !== started || app.accountId !== accountId) return null
      return result
    } finally {
      if (requestId) pendingReads.delete(requestId)
    }
  }

  /** Loads the profile and permissions; concurrent callers share one request. */
  function load(): Promise<void> {
    if (inflight) return inflight
    if (!app.accountId) return Promise.resolve()
    loading.value = true
    const started = epoch.value
    const promise = (async () => {
      const [shown, allowed] = await Promise.all([
        call('user.show', undefined, { read: true }),
        call('user.permissions', undefined, { read: true }),
      ])
      if (epoch.value !== started) return
      if (shown?.ok) {
        user.value = shown.data.data.data
        error.value = null
      } else if (shown && shown.error.code !== 'CANCELLED') error.value = shown.error
      if (allowed?.ok) {
        permissions.value = allowed.data.data.data
        permissionsError.value = null
      } else if (allowed && allowed.error.code !== 'CANCELLED')
        permissionsError.value = allowed.error
    })().finally(() => {
      if (epoch.value !== started) return
      inflight = null
      loading.value = false
    })
    inflight = promise
    return promise
  }

  /** Loads once; later callers get what is loaded. */
  function ensureLoaded(): Promise<void> {
    return user.value && permissions.value ? Promise.resolve() : load()
  }

  /** Takes a fresh copy of the user from an answer (update, 2FA disable, default method). */
  function setUser(next: CurrentUser): void {
    user.value = next
  }

  /** True when the current user holds `permission` (false until permissions are loaded). */
  function can(permission: string): boolean {
    return permissions.value?.permissions.includes(permission) ?? false
  }

  /** Records that the user deleted their own account at the service. */
  function markDeleted(): void {
    deletedAtService.value = true
    for (const requestId of pendingReads) cancelRequest(requestId)
    pendingReads.clear()
  }

  return {
    ownerId,
    epoch,
    user,
    permissions,
    error,
    permissionsError,
    loading,
    deletedAtService,
    call,
    load,
    ensureLoaded,
    setUser,
    can,
    markDeleted,
  }
})
