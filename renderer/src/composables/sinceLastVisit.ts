import { onScopeDispose, ref, watch } from 'vue'
import type { AppError } from '@contract/errors'
import type { SinceAnswer } from '@contract/since'
import { request } from '@/bridge/bridge'
import { useAccountsStore } from '@/stores/accounts'
import { useAppStore } from '@/stores/app'

/** One account's counts since its last visit, or why they are not there. */
export interface SinceState {
  answer: SinceAnswer | null
  error: AppError | null
  loading: boolean
}

/** Records that the user saw the account's dashboard (a failure only loses this one visit). */
function markSeen(accountId: string | null): void {
  if (accountId) void request('since.seen', { accountId })
}

/**
 * "Since your last visit" of this window's account while the dashboard is on screen. The visit
 * is recorded when the user leaves it: another screen, another account, or the window closing
 * (docs/decisions.md, "Since your last visit").
 */
export function useSinceLastVisit() {
  const app = useAppStore()
  const state = ref<SinceState>({ answer: null, error: null, loading: false })
  /** The account whose counts are on screen: the one whose visit leaving records. */
  let shownFor: string | null = null
  let asked = 0

  async function load(): Promise<void> {
    const accountId = app.accountId
    if (!accountId) return
    const mine = ++asked
    state.value = { ...state.value, loading: true }
    const result = await request('since.counts', { accountId })
    if (mine !== asked) return
    shownFor = accountId
    state.value = result.ok
      ? { answer: result.data, error: null, loading: false }
      : { answer: null, error: result.error, loading: false }
  }

  const leave = () => {
    markSeen(shownFor)
    shownFor = null
  }
  watch(
    () => app.accountId,
    () => {
      leave()
      asked++
      state.value = { answer: null, error: null, loading: false }
      void load()
    },
    { immediate: true },
  )
  window.addEventListener('pagehide', leave)
  onScopeDispose(() => {
    window.removeEventListener('pagehide', leave)
    asked++
    // Recorded once the next screen has sent its first reads (its setup runs in this same flush):
    // the write waits a task rather than go before them to main.
    const left = shownFor
    shownFor = null
    setTimeout(() => markSeen(left), 0)
  })
  return { state, reload: load }
}

/**
 * The same counts for every signed-in account, side by side (each asked of main, which reads with
 * that account's own credentials, or its offline copy). Nothing is recorded as seen here.
 */
export function useAllAccountsSince() {
  const accounts = useAccountsStore()
  const states = ref<Record<string, SinceState>>({})
  let asked = 0

  async function load(): Promise<void> {
    const mine = ++asked
    const ids = accounts.accounts.filter((a) => a.signedIn).map((a) => a.id)
    states.value = Object.fromEntries(
      ids.map((id) => [
        id,
        { answer: states.value[id]?.answer ?? null, error: null, loading: true },
      ]),
    )
    await Promise.all(
      ids.map(async (accountId) => {
        const result = await request('since.counts', { accountId })
        if (mine !== asked) return
        states.value = {
          ...states.value,
          [accountId]: result.ok
            ? { answer: result.data, error: null, loading: false }
            : { answer: null, error: result.error, loading: false },
        }
      }),
    )
  }

  watch(
    () =>
      accounts.accounts
        .filter((a) => a.signedIn)
        .map((a) => a.id)
        .join(','),
    () => void load(),
    { immediate: true },
  )
  return { states, reload: load }
}
