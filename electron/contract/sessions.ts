import { z } from 'zod'
import { keptName } from './names'
import { accountId, caBundle, secret, trustConfirmation, type AccountView } from './accounts'
import type { DraftKind } from './drafts'
import { RELEASES, type Release } from './releases'

/*
 * Sessions: every way of signing an account in (password, second factor, access token, SSO
 * link), the links of e-mails (confirmation, invitation, password reset), impersonation, session
 * expiry and re-authentication, account maintenance. Tokens and one-time secrets stay in main:
 * the renderer names a challenge or a link by an opaque id that main hands out.
 */

/** A second-factor method of a sign-in challenge. */
export const secondFactorMethod = z.enum(['app', 'sms', 'recovery'])
/** One second-factor method. */
export type SecondFactorMethod = z.infer<typeof secondFactorMethod>

/** An opaque id main gives to a pending challenge or an opened link (never a service token). */
export const flowId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'is not a valid id')

/** A pending second-factor step of a sign-in, as the renderer sees it (no service token). */
export interface ChallengeView {
  challengeId: string
  /** The account being signed in, or null while adding a new account. */
  accountId: string | null
  label: string
  username: string
  methods: SecondFactorMethod[]
  defaultMethod: SecondFactorMethod | null
  /** When the challenge ends (ISO); after it, sign in again. */
  expiresAt: string
  /** Masked phone number once an SMS code was sent, e.g. "+44 •••• ••8750". */
  phoneHint: string | null
  /** When an SMS code may be sent again (ISO), or null before the first one. */
  smsResendAt: string | null
}

/** What a sign-in step leads to: signed in, or a second factor is needed. */
export type SignInOutcome =
  { status: 'signedIn'; account: AccountView } | { status: 'challenge'; challenge: ChallengeView }

/** A one-time code typed by the user: 6 digits, or a recovery code (letters, digits, dashes). */
export const oneTimeCode = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(64, 'is too long')
  .regex(/^[A-Za-z0-9-]+$/, 'may contain only letters, digits and dashes')

/** Payload of accounts.secondFactor. */
export const secondFactorInput = z
  .strictObject({ challengeId: flowId, method: secondFactorMethod, code: oneTimeCode })
  .superRefine((v, ctx) => {
    if (v.method !== 'recovery' && !/^\d{6}$/.test(v.code))
      ctx.addIssue({ code: 'custom', path: ['code'], message: 'must be 6 digits' })
  })

/** Payload of accounts.signIn: the password, and whether to remember it in the keychain. */
export const signInInput = z.strictObject({
  accountId,
  password: secret,
  /** Opt-in: keep the password in the OS keychain for silent re-sign-in when the session ends. */
  remember: z.boolean().optional(),
})

/** Payload of accounts.update: what can change without adding the account again. */
export const updateAccountInput = z.strictObject({
  accountId,
  label: keptName(80).optional(),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #3366ff')
    .optional(),
  release: z.enum(RELEASES).optional(),
  /** A new API key (replaces the one in the keychain). */
  apiKey: secret.optional(),
  /** A CA bundle, or null to remove it. */
  caBundle: caBundle.nullable().optional(),
  trustConfirmation: trustConfirmation.optional(),
})

/** Result of accounts.test: can this account reach its service and is its session alive. */
export interface ConnectionTest {
  reachable: boolean
  apiKeyAccepted: boolean | null
  /** 'valid' / 'expired' per the token validity check; 'none' when not signed in. */
  session: 'valid' | 'expired' | 'none'
  latencyMs: number | null
  /** The release the probes point to, or null when they could not tell. */
  detectedRelease: Release | null
  message: string
  checkedAt: string
}

/** Payload of accounts.detectRelease: probes a service before (or after) it is added. */
export const detectReleaseInput = z.union([
  z.strictObject({ accountId }),
  z.strictObject({
    baseUrl: z.string().trim().min(1, 'is required').max(2048, 'is too long'),
    apiKey: secret,
    allowInsecureHttp: z.boolean().optional(),
    caBundle: caBundle.optional(),
    trustConfirmation: trustConfirmation.optional(),
  }),
])

/** Result of accounts.detectRelease: the release and what showed it. */
export interface ReleaseDetection {
  release: Release | null
  evidence: string[]
}

/** What removing an account deletes, for the confirmation that names it (counted in main). */
export interface RemovalPlan {
  accountId: string
  label: string
  keychainEntries: number
  exportJobs: number
  ledgerEntries: number
  /** Answers in the account's offline copy (every signed-in identity's; on disk and in memory). */
  cachedRecords: number
  /** Drafts on this computer, all kinds. */
  drafts: number
  /** The same drafts by kind (SAQs being filled, the scan wizard). */
  draftsByKind: Record<DraftKind, number>
  /** Changes kept in the outbox to send later, waiting or refused. */
  outboxItems: number
  /** Runs of its scans ScanDesk kept a snapshot of (the Changes of scans). */
  runSnapshots: number
  /** Its saved views of lists; null when they could not be opened (the keychain is locked). */
  savedViews: number | null
  /** Bulk runs kept with their result per item. */
  bulkRuns: number
  /** Days of open-finding totals ScanDesk recorded for the dashboard's trend. */
  dailyTotals: number
  /** Files on disk are never deleted by removing an account. */
  filesKept: number
}

/** The kinds of link ScanDesk accepts (scandesk://<kind>?host=<service host>&token=<token>). */
export const LINK_KINDS = ['sso', 'confirm', 'invite', 'reset'] as const
/** One link kind. */
export type LinkKind = (typeof LINK_KINDS)[number]

/** A link opened in ScanDesk (pasted, or through the OS protocol handler); the token stays in main. */
export interface LinkView {
  linkId: string
  kind: LinkKind
  /** The service host the link names (host[:port]). */
  host: string
  /** Accounts whose base URL has that host (the link can only be used with one of them). */
  accountIds: string[]
  /** Invitation and reset links need a new password to finish. */
  needsPassword: boolean
}

/** Payload of links.complete: use an opened link with one account. */
export const completeLinkInput = z.strictObject({
  linkId: flowId,
  accountId,
  /** For invitation and reset links: the new password (10–128 characters). */
  password: z
    .string()
    .min(10, 'must be at least 10 characters')
    .max(128, 'must be at most 128 characters')
    .optional(),
  /** For invitation links: the name the new user will carry at the service. */
  firstName: z.string().trim().min(1, 'is required').max(80, 'is too long').optional(),
  lastName: z.string().trim().min(1, 'is required').max(80, 'is too long').optional(),
})

/** What using a link did. */
export type LinkOutcome =
  | { kind: 'sso'; outcome: SignInOutcome }
  | { kind: 'confirm' | 'invite' | 'reset'; accountId: string; message: string }

/** State of an account's access token (the token itself never leaves main). */
export interface AccessTokenState {
  accountId: string
  /** True when the account signs its requests with an access token (Basic). */
  inUse: boolean
  valid: boolean | null
  checkedAt: string | null
}

/** Payload of accounts.accessToken. */
export const accessTokenInput = z.strictObject({
  accountId,
  action: z.enum(['generate', 'revoke', 'check']),
})

/** Why main asks the user to sign in again. */
export interface ReauthRequest {
  accountId: string
  label: string
  username: string
  /** Calls waiting for the new session (they resume after it, or fail if the prompt is cancelled). */
  waiting: number
  reason: string
}

/** Where accounts.openWindow opened the account (browser mode: a URL the renderer opens in a tab). */
export type OpenedWindow = { opened: 'window' } | { opened: 'url'; url: string }

/** Service operations only main may run: they return or consume credentials (refused by api.call). */
export const MAIN_ONLY_OPERATIONS: ReadonlySet<string> = new Set([
  'auth.sign_in',
  'auth.two_factor_check',
  'auth.sms_otp_send',
  'auth.sms_otp_verify',
  'auth.sign_in_recovery_code',
  'auth.sign_out',
  'auth.sso_login',
  'auth.confirm_user',
  'auth.accept_invitation',
  'auth.password_reset_request',
  'auth.password_reset_confirm',
  'auth.impersonate',
  'auth.stop_impersonation',
  'user.generate_access_token',
  'user.revoke_access_token',
])

/** Channel inputs of the sessions part. */
export const sessionsInputs = {
  'accounts.secondFactor': secondFactorInput,
  'accounts.sendSms': z.strictObject({ challengeId: flowId }),
  'accounts.cancelChallenge': z.strictObject({ challengeId: flowId }),
  'accounts.update': updateAccountInput,
  'accounts.test': z.strictObject({ accountId }),
  'accounts.detectRelease': detectReleaseInput,
  'accounts.removalPlan': z.strictObject({ accountId }),
  'accounts.accessToken': accessTokenInput,
  'accounts.setRemember': z.strictObject({
    accountId,
    remember: z.boolean(),
    password: secret.optional(),
  }),
  'accounts.impersonate': z.strictObject({
    accountId,
    userId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a user id'),
  }),
  'accounts.stopImpersonation': z.strictObject({ accountId }),
  'accounts.cancelReauth': z.strictObject({ accountId }),
  'accounts.requestPasswordReset': z.strictObject({ accountId }),
  'accounts.openWindow': z.strictObject({ accountId }),
  'links.open': z.strictObject({
    link: z.string().trim().min(1, 'is required').max(4096, 'is too long'),
  }),
  'links.complete': completeLinkInput,
  'links.dismiss': z.strictObject({ linkId: flowId }),
} as const

/** Channel outputs of the sessions part. */
export interface SessionsOutputs {
  'accounts.secondFactor': SignInOutcome
  'accounts.sendSms': ChallengeView
  'accounts.cancelChallenge': { cancelled: boolean }
  'accounts.update': AccountView
  'accounts.test': ConnectionTest
  'accounts.detectRelease': ReleaseDetection
  'accounts.removalPlan': RemovalPlan
  'accounts.accessToken': AccessTokenState
  'accounts.setRemember': AccountView
  'accounts.impersonate': AccountView
  'accounts.stopImpersonation': AccountView
  'accounts.cancelReauth': { cancelled: number }
  'accounts.requestPasswordReset': { sent: true; message: string }
  'accounts.openWindow': OpenedWindow
  'links.open': LinkView
  'links.complete': LinkOutcome
  'links.dismiss': { dismissed: boolean }
}

/** Events of the sessions part. */
export interface SessionsEvents {
  /** An account's session ended: its calls wait; the renderer shows one sign-in prompt. */
  'accounts.reauthRequired': ReauthRequest
  /** A link arrived through the OS protocol handler (Electron) or another window. */
  'links.opened': LinkView
}

/**
 * Parses a ScanDesk link: `scandesk://<sso|confirm|invite|reset>?host=<host[:port]>&token=<token>`.
 * Returns the parts, or a sentence saying why the text is not such a link. Pure (renderer and main).
 */
export function parseLink(
  text: string,
): { ok: true; kind: LinkKind; host: string; token: string } | { ok: false; problem: string } {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    return { ok: false, problem: 'This is not a link.' }
  }
  if (url.protocol !== 'scandesk:')
    return { ok: false, problem: 'Only scandesk:// links can be opened in ScanDesk.' }
  const kind = (url.hostname || url.pathname.replace(/^\/+/, '').split('/')[0]) as LinkKind
  if (!LINK_KINDS.includes(kind))
    return {
      ok: false,
      problem: `ScanDesk does not know links of the kind “${kind.slice(0, 40)}”.`,
    }
  if (url.username || url.password) return { ok: false, problem: 'The link carries a user name.' }
  const host = url.searchParams.get('host') ?? ''
  const token = url.searchParams.get('token') ?? ''
  if (
    !/^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$/.test(host) &&
    !/^\[[0-9a-fA-F:]+\](:\d{1,5})?$/.test(host)
  )
    return { ok: false, problem: 'The link does not name a valid service host.' }
  if (!/^[A-Za-z0-9_.~-]{8,200}$/.test(token))
    return { ok: false, problem: 'The link’s token is missing or malformed.' }
  const extra = [...url.searchParams.keys()].filter((k) => k !== 'host' && k !== 'token')
  if (extra.length) return { ok: false, problem: 'The link carries unexpected parameters.' }
  return { ok: true, kind, host: host.toLowerCase(), token }
}
