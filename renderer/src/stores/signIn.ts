import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import { secret } from '@contract/accounts'
import type { Result } from '@contract/errors'
import type {
  ChallengeView,
  LinkOutcome,
  LinkView,
  ReauthRequest,
  SecondFactorMethod,
  SignInOutcome,
} from '@contract/sessions'
import { on, request } from '@/bridge/bridge'
import { useAccountsStore } from './accounts'

/** Checks a typed password with the contract's schema; a sentence for the user, or null. */
export function passwordProblem(password: string): string | null {
  if (!password) return 'Enter the password of this account.'
  const checked = secret.safeParse(password)
  return checked.success ? null : `The password ${checked.error.issues[0].message}.`
}

/**
 * The flows around signing in that outlive one dialog: pending second-factor challenges (by the
 * opaque id main gave them), the queue of re-authentication prompts (one per account), and the
 * link dialog with the link main opened. No secret is kept here: passwords and codes pass
 * through to main and are dropped by the caller.
 */
export const useSignInStore = defineStore('signIn', () => {
  const accounts = useAccountsStore()

  // ---- second-factor challenges ----
  const challenges = ref<Record<string, ChallengeView>>({})

  function track(challenge: ChallengeView): void {
    challenges.value = { ...challenges.value, [challenge.challengeId]: challenge }
  }

  function forget(challengeId: string): void {
    if (!(challengeId in challenges.value)) return
    const rest = { ...challenges.value }
    delete rest[challengeId]
    challenges.value = rest
  }

  /** Follows an outcome: a challenge is tracked, a signed-in account ends its reauth prompt. */
  function follow(outcome: SignInOutcome): void {
    if (outcome.status === 'challenge') track(outcome.challenge)
    else resolveReauth(outcome.account.id)
  }

  /** Signs in to an existing account; may answer a challenge. */
  async function signIn(
    accountId: string,
    password: string,
    remember?: boolean,
  ): Promise<Result<SignInOutcome>> {
    const result = await accounts.signIn(accountId, password, remember)
    if (result.ok) follow(result.data)
    return result
  }

  /** Answers a challenge; a wrong code keeps it, an expired one is forgotten. */
  async function submitCode(
    challenge: ChallengeView,
    method: SecondFactorMethod,
    code: string,
  ): Promise<Result<SignInOutcome>> {
    const { challengeId } = challenge
    const result = await accounts.secondFactor(
      { challengeId, method, code },
      challenge.accountId === null,
    )
    if (result.ok) {
      forget(challengeId)
      follow(result.data)
    } else if (result.error.code === 'CHALLENGE_EXPIRED') forget(challengeId)
    return result
  }

  /** Asks main to send (or send again) the SMS code of a challenge. */
  async function sendSms(challengeId: string): Promise<Result<ChallengeView>> {
    const result = await request('accounts.sendSms', { challengeId })
    if (result.ok) track(result.data)
    else if (result.error.code === 'CHALLENGE_EXPIRED') forget(challengeId)
    return result
  }

  /** Drops a challenge here and in main (best effort: main also lets it expire). */
  async function cancelChallenge(challengeId: string): Promise<void> {
    forget(challengeId)
    await request('accounts.cancelChallenge', { challengeId })
  }

  // ---- re-authentication prompts ----
  const reauthQueue = ref<ReauthRequest[]>([])
  const currentReauth = computed(() => reauthQueue.value[0] ?? null)

  /** Queues a prompt; a second request for the same account only updates the waiting count. */
  function requireReauth(req: ReauthRequest): void {
    const i = reauthQueue.value.findIndex((r) => r.accountId === req.accountId)
    if (i === -1) reauthQueue.value = [...reauthQueue.value, req]
    else reauthQueue.value = reauthQueue.value.map((r, j) => (j === i ? req : r))
  }

  /** Ends an account's prompt (it signed in again, here or in another window). */
  function resolveReauth(accountId: string): void {
    reauthQueue.value = reauthQueue.value.filter((r) => r.accountId !== accountId)
  }

  /** Gives up on re-signing in: main fails the waiting calls with NOT_SIGNED_IN. */
  async function cancelReauth(accountId: string): Promise<Result<{ cancelled: number }>> {
    const result = await request('accounts.cancelReauth', { accountId })
    if (result.ok || result.error.code === 'UNKNOWN_ACCOUNT') resolveReauth(accountId)
    return result
  }

  // An account that stopped waiting (signed in from another window) or was removed needs no
  // prompt. Synchronous, so that no list change (and no true → false transition) is missed.
  watch(
    () => accounts.accounts,
    (now, before) => {
      const was = new Map(before.map((a) => [a.id, a.awaitingReauth]))
      const ids = new Set(now.map((a) => a.id))
      for (const a of now) if (was.get(a.id) === true && !a.awaitingReauth) resolveReauth(a.id)
      for (const r of reauthQueue.value)
        if (was.has(r.accountId) && !ids.has(r.accountId)) resolveReauth(r.accountId)
    },
    { flush: 'sync' },
  )

  // ---- links ----
  const linkDialogOpen = ref(false)
  const link = ref<LinkView | null>(null)
  const linkUsed = ref(false)

  function dismissPending(): void {
    if (link.value && !linkUsed.value) void request('links.dismiss', { linkId: link.value.linkId })
  }

  /** Opens the link dialog (empty, for a pasted link, unless a link is already showing). */
  function openLinkDialog(): void {
    linkDialogOpen.value = true
  }

  /** Closes the link dialog; an opened link that was not used is dismissed in main. */
  function closeLinkDialog(): void {
    dismissPending()
    link.value = null
    linkUsed.value = false
    linkDialogOpen.value = false
  }

  function showLink(view: LinkView): void {
    if (link.value?.linkId !== view.linkId) dismissPending()
    link.value = view
    linkUsed.value = false
    linkDialogOpen.value = true
  }

  /** Hands a pasted link to main, which decides; the view says what it does and for whom. */
  async function openLink(text: string): Promise<Result<LinkView>> {
    const result = await request('links.open', { link: text })
    if (result.ok) showLink(result.data)
    return result
  }

  /** Uses the opened link with one account (and a new password for invitations and resets). */
  async function completeLink(
    accountId: string,
    password?: string,
    names?: { firstName: string; lastName: string },
  ): Promise<Result<LinkOutcome>> {
    if (!link.value) throw new Error('no link is open')
    const result = await request('links.complete', {
      linkId: link.value.linkId,
      accountId,
      ...(password ? { password } : {}),
      ...(names ?? {}),
    })
    if (result.ok) {
      linkUsed.value = true
      if (result.data.kind === 'sso') {
        await accounts.applyOutcome(result.data.outcome)
        follow(result.data.outcome)
      }
    }
    return result
  }

  on('accounts.reauthRequired', requireReauth)
  on('links.opened', showLink)

  return {
    challenges,
    signIn,
    submitCode,
    sendSms,
    cancelChallenge,
    reauthQueue,
    currentReauth,
    requireReauth,
    resolveReauth,
    cancelReauth,
    linkDialogOpen,
    link,
    linkUsed,
    openLinkDialog,
    closeLinkDialog,
    openLink,
    completeLink,
  }
})
