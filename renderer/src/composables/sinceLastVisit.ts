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

/** Tells main the user left the account's dashboard having seen counts up to `until`. */
function markLeft(shown: Shown | null): void {
  if (shown) void request('since.left', shown)
}

/** The account whose counts are on screen, and up to when they counted. */
interface Shown {
  accountId: string
  until: string
}

/**
 * "Since your last visit" of this window's account while the dashboard is on screen. Leaving it
 * (another screen, another account, the window closing or reloading) is told to main, where the
 * digest moves on only once the dashboard stayed left for VISIT_GAP_HOURS, or when the user marks
 * it reviewed here (docs/decisions.md, "Since your last visit").
 */
export function useSinceLastVisit() {
  const app = useAppStore()
  const state = ref<SinceState>({ answer: null, error: null, loading: false })
  /** The counts on screen: the visit leaving them tells main of. */
  let shown: Shown | null = null
  let asked = 0

  async function load(): Promise<void> {
    const accountId = app.accountId
    if (!accountId) return
    const mine = ++asked
    state.value = { ...state.value, loading: true }
    const result = await request('since.counts', { accountId })
    if (mine !== asked) return
    shown = result.ok ? { accountId, until: result.data.until } : shown
    state.value = result.ok
      ? { answer: result.data, error: null, loading: false }
      : { answer: null, error: result.error, loading: false }
  }

  /** The analyst reviewed the counts on screen: the digest counts from their "until" on. */
  async function markReviewed(): Promise<AppError | null> {
    const answer = state.value.answer
    if (!answer) return null
    const result = await request('since.reviewed', {
      accountId: answer.accountId,
      until: answer.until,
    })
    if (!result.ok) return result.error
    if (app.accountId === answer.accountId) await load()
    return null
  }

  const leave = () => {
    markLeft(shown)
    shown = null
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
  // The service is back (online again, or "Work offline" switched off): counts it could not make
  // or made from the offline copy are made again (only while the dashboard is on screen).
  watch(
    () => (app.accountId ? app.connectivityOf(app.accountId).state : null),
    (now, before) => {
      if (now === 'online' && before && before !== 'online') void load()
    },
  )
  window.addEventListener('pagehide', leave)
  onScopeDispose(() => {
    window.removeEventListener('pagehide', leave)
    asked++
    // Told once the next screen has sent its first reads (its setup runs in this same flush):
    // the write waits a task rather than go before them to main.
    const left = shown
    shown = null
    setTimeout(() => markLeft(left), 0)
  })
  return { state, reload: load, markReviewed }
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
