import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { AppInfo, Connectivity, KeychainStatus } from '@contract/channels'
import type { AppError } from '@contract/errors'
import { bridgeKind, on, request } from '@/bridge/bridge'

/** What the app knows about itself: mode, version, keychain, and connectivity per account. */
export const useAppStore = defineStore('app', () => {
  const info = ref<AppInfo | null>(null)
  const keychain = ref<KeychainStatus | null>(null)
  const connectivity = ref<Record<string, Connectivity>>({})
  const error = ref<AppError | null>(null)
  let inflight: Promise<void> | null = null

  /** Electron or browser mode (known from the bridge before app.info answers). */
  const mode = computed(() => info.value?.mode ?? bridgeKind())
  const keychainUnavailable = computed(() => keychain.value?.available === false)

  /** Loads app.info; concurrent callers share one request. */
  function load(): Promise<void> {
    inflight ??= (async () => {
      try {
        const result = await request('app.info', {})
        if (result.ok) {
          info.value = result.data
          keychain.value = result.data.keychain
          error.value = null
        } else error.value = result.error
      } finally {
        inflight = null
      }
    })()
    return inflight
  }

  /** True/false once main has reported on the account's service; null before that. */
  function isOnline(accountId: string | null): boolean | null {
    if (!accountId) return null
    return connectivity.value[accountId]?.online ?? null
  }

  on('connectivity', (c) => {
    connectivity.value = { ...connectivity.value, [c.accountId]: c }
  })
  on('keychain.status', (status) => {
    keychain.value = status
  })

  return { info, mode, keychain, keychainUnavailable, connectivity, error, load, isOnline }
})
