import { createHash, randomBytes } from 'node:crypto'
import type { z } from 'zod'
import { AppFailure, fail } from '@contract/errors'
import {
  parseLink,
  type completeLinkInput,
  type LinkKind,
  type LinkOutcome,
  type LinkView,
} from '@contract/sessions'
import type { HandlerContext } from '../handlers/context'
import type { AccountRow } from '../store/accounts-repo'
import { clientWithToken, endSessionQuietly, stopImpersonationIfAny } from './impersonation'

/*
 * Links from e-mails (SSO, confirmation, invitation, password reset) opened in ScanDesk. The
 * token stays here, in main, keyed by an opaque link id; a link lives 15 minutes and is used
 * once (the service also accepts each token once). Only a hash of used tokens is remembered, so
 * the same link opened again is refused without asking the service.
 */

/** How long an opened link may be completed. */
export const LINK_TTL_MS = 15 * 60_000

/** The message of a link whose token was used already or ran out. */
export const LINK_USED = 'This link was already used or has expired.'

const USED_KEEP_MS = 24 * 60 * 60_000
const USED_MAX = 1_000

/** An opened link as main keeps it (the token never leaves main). */
export interface OpenLink {
  linkId: string
  kind: LinkKind
  host: string
  token: string
  expiresAt: number
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url')
}

/** The host[:port] of a base URL, and the same with the scheme's default port spelled out. */
function hostsOf(baseUrl: string): string[] {
  try {
    const url = new URL(baseUrl)
    const port = url.port || (url.protocol === 'https:' ? '443' : '80')
    return [url.host.toLowerCase(), `${url.hostname.toLowerCase()}:${port}`]
  } catch {
    return []
  }
}

/** True when a link's host (host[:port], lower case) names the service of `baseUrl`. */
export function hostMatches(baseUrl: string, host: string): boolean {
  return hostsOf(baseUrl).includes(host.toLowerCase())
}

/** The ids of the accounts whose base URL has the link's host. */
export function accountsForHost(
  accounts: readonly { id: string; baseUrl: string }[],
  host: string,
): string[] {
  return accounts.filter((a) => hostMatches(a.baseUrl, host)).map((a) => a.id)
}

/** Pending links of one core, and hashes of the tokens it already used. */
export class LinkStore {
  private readonly links = new Map<string, OpenLink>()
  private readonly used = new Map<string, number>()

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Parses and keeps a link; VALIDATION (with the reason) when it is not a ScanDesk link or was
   * used in ScanDesk before. `accounts` lists the stored accounts (for the host check).
   */
  open(text: string, accounts: readonly { id: string; baseUrl: string }[]): LinkView {
    this.sweep()
    const parsed = parseLink(text)
    if (!parsed.ok) fail('VALIDATION', parsed.problem, { fieldErrors: { link: [parsed.problem] } })
    if (this.used.has(tokenHash(parsed.token))) fail('VALIDATION', LINK_USED)
    const accountIds = accountsForHost(accounts, parsed.host)
    if (!accountIds.length) {
      const message = `No account in ScanDesk uses ${parsed.host}; add that account first.`
      fail('VALIDATION', message, { fieldErrors: { link: [message] } })
    }
    const link: OpenLink = {
      linkId: randomBytes(18).toString('base64url'),
      kind: parsed.kind,
      host: parsed.host,
      token: parsed.token,
      expiresAt: this.now() + LINK_TTL_MS,
    }
    this.links.set(link.linkId, link)
    return {
      linkId: link.linkId,
      kind: link.kind,
      host: link.host,
      accountIds,
      needsPassword: link.kind === 'invite' || link.kind === 'reset',
    }
  }

  /** The link without taking it (checks before use), or CHALLENGE_EXPIRED when it is gone. */
  peek(linkId: string): OpenLink {
    this.sweep()
    const link = this.links.get(linkId)
    if (!link) fail('CHALLENGE_EXPIRED', `${LINK_USED} Open it again from the e-mail.`)
    return { ...link }
  }

  /** Takes the link out for one use (a second use at the same time finds nothing). */
  take(linkId: string): OpenLink {
    const link = this.peek(linkId)
    this.links.delete(linkId)
    return link
  }

  /** Puts a link back after a use that did not reach the service (offline, timeout). */
  putBack(link: OpenLink): void {
    if (link.expiresAt > this.now()) this.links.set(link.linkId, link)
  }

  /** Records that the service saw the token (accepted or refused it): it is not offered again. */
  markUsed(link: OpenLink): void {
    if (this.used.size >= USED_MAX) {
      const oldest = this.used.keys().next().value
      if (oldest !== undefined) this.used.delete(oldest)
    }
    this.used.set(tokenHash(link.token), this.now())
  }

  /** Forgets a link; true when it was pending. */
  dismiss(linkId: string): boolean {
    return this.links.delete(linkId)
  }

  /** How many links are pending (tests). */
  get size(): number {
    this.sweep()
    return this.links.size
  }

  private sweep(): void {
    const now = this.now()
    for (const [id, link] of this.links) if (link.expiresAt <= now) this.links.delete(id)
    for (const [hash, at] of this.used) if (at + USED_KEEP_MS <= now) this.used.delete(hash)
  }
}

const stores = new WeakMap<object, LinkStore>()

/** The link store of one core, keyed by an object the core owns (its account service). */
export function linkStoreOf(owner: object): LinkStore {
  let store = stores.get(owner)
  if (!store) stores.set(owner, (store = new LinkStore()))
  return store
}

/** The parsed payload of links.complete. */
export type CompleteLinkInput = z.output<typeof completeLinkInput>

/** The name an invited user will carry at the service. */
type InvitationNames = { first_name: string; last_name: string }

/** Opens a link (pasted or from the OS) against the stored accounts; the token stays in main. */
export async function openLink(ctx: HandlerContext, text: string): Promise<LinkView> {
  const { accounts } = await ctx.accounts.list()
  return linkStoreOf(ctx.accounts).open(text, accounts)
}

/** The e-mail address of the user a session belongs to, or null when the service did not say. */
async function emailOfSession(
  ctx: HandlerContext,
  row: AccountRow,
  token: string,
): Promise<string | null> {
  const client = await clientWithToken(ctx, row, token)
  try {
    const answer = (await client.call('user.show')) as {
      data?: { attributes?: { email?: unknown } }
    }
    const email = answer.data?.attributes?.email
    return typeof email === 'string' ? email : null
  } catch {
    return null
  } finally {
    client.close()
  }
}

function sameUser(a: string | null, b: string): boolean {
  return a !== null && a.trim().toLowerCase() === b.trim().toLowerCase()
}

const CALLS = {
  sso: (token: string, _password: string, _names: InvitationNames) => ({
    op: 'auth.sso_login',
    body: { sso_token: token },
  }),
  confirm: (token: string, _password: string, _names: InvitationNames) => ({
    op: 'auth.confirm_user',
    body: { confirmation_token: token },
  }),
  invite: (token: string, password: string, names: InvitationNames) => ({
    op: 'auth.accept_invitation',
    body: { invitation_token: token, password, ...names },
  }),
  reset: (token: string, password: string, _names: InvitationNames) => ({
    op: 'auth.password_reset_confirm',
    body: { reset_token: token, password },
  }),
} as const

/** True when the failure came with an answer of the service that settles the token (refused). */
function tokenRefused(err: unknown): boolean {
  const status = err instanceof AppFailure ? err.error.status : undefined
  return status === 401 || status === 403 || status === 404 || status === 410 || status === 422
}

function passwordProblem(err: unknown): AppFailure | null {
  if (!(err instanceof AppFailure) || err.error.status !== 422) return null
  const messages = err.error.fieldErrors?.password
  if (!messages?.length) return null
  return new AppFailure({
    code: 'VALIDATION',
    status: 422,
    message: 'The service did not accept the new password.',
    fieldErrors: { password: messages },
  })
}

/** SSO: the session must belong to the account's user, or it is ended and refused. */
async function finishSso(
  ctx: HandlerContext,
  row: AccountRow,
  token: string,
): Promise<LinkOutcome> {
  const email = await emailOfSession(ctx, row, token)
  if (!sameUser(email, row.username)) {
    await endSessionQuietly(ctx, row, token)
    fail(
      'VALIDATION',
      email
        ? `This link signs in ${email}, but “${row.label}” is ${row.username}. Use it with that user’s account.`
        : 'ScanDesk could not check which user this link signs in, so it did not use it.',
      { fieldErrors: { accountId: ['is not the user this link signs in'] } },
    )
  }
  await stopImpersonationIfAny(ctx, row.id)
  const account = await ctx.accounts.adoptSession(row.id, token)
  return { kind: 'sso', outcome: { status: 'signedIn', account } }
}

async function finishInvite(
  ctx: HandlerContext,
  row: AccountRow,
  answer: { token?: unknown; data?: { email?: unknown } },
): Promise<LinkOutcome> {
  const token = typeof answer.token === 'string' ? answer.token : null
  const email = typeof answer.data?.email === 'string' ? answer.data.email : null
  const base = `The invitation${email ? ` for ${email}` : ''} is accepted and the password is set.`
  if (
    token &&
    row.authMethod === 'password' &&
    !row.impersonating &&
    sameUser(email, row.username)
  ) {
    await ctx.accounts.adoptSession(row.id, token)
    return { kind: 'invite', accountId: row.id, message: `${base} “${row.label}” is signed in.` }
  }
  // The session belongs to the invited user, not to this account: end it.
  if (token) await endSessionQuietly(ctx, row, token)
  return {
    kind: 'invite',
    accountId: row.id,
    message: `${base} Add an account with that user name and the new password to work as that user.`,
  }
}

/**
 * Uses an opened link with one account (its host must be the link's): SSO signs the account in;
 * confirmation, invitation (new password) and reset (new password) are done at the service.
 * A token the service refuses is gone; one that never reached it can be tried again.
 */
export async function completeLink(
  ctx: HandlerContext,
  input: CompleteLinkInput,
): Promise<LinkOutcome> {
  const store = linkStoreOf(ctx.accounts)
  const pending = store.peek(input.linkId)
  const row = ctx.accounts.row(input.accountId)
  if (!hostMatches(row.baseUrl, pending.host)) {
    const message = `This link is for ${pending.host}; “${row.label}” uses ${new URL(row.baseUrl).host}.`
    fail('VALIDATION', message, { fieldErrors: { accountId: [message] } })
  }
  const kind = pending.kind
  if ((kind === 'invite' || kind === 'reset') && !input.password)
    fail('VALIDATION', 'Choose a new password to finish.', {
      fieldErrors: { password: ['is required'] },
    })
  if (kind === 'invite' && (!input.firstName || !input.lastName))
    fail('VALIDATION', 'Enter the first and last name of the invited user to finish.', {
      fieldErrors: {
        ...(input.firstName ? {} : { firstName: ['is required'] }),
        ...(input.lastName ? {} : { lastName: ['is required'] }),
      },
    })
  if (kind === 'sso' && row.authMethod !== 'password')
    fail(
      'VALIDATION',
      `“${row.label}” signs in with an access token; a sign-in link cannot change that.`,
    )
  const link = store.take(input.linkId)
  const call = CALLS[kind](link.token, input.password ?? '', {
    first_name: input.firstName ?? '',
    last_name: input.lastName ?? '',
  })
  let answer: Record<string, unknown>
  const client = await clientWithToken(ctx, row, null).catch((err: unknown) => {
    store.putBack(link)
    throw err
  })
  try {
    answer = ((await client.call(call.op, { body: call.body })) ?? {}) as Record<string, unknown>
  } catch (err) {
    const badPassword = passwordProblem(err)
    if (badPassword) {
      store.putBack(link)
      throw badPassword
    }
    if (!tokenRefused(err)) {
      store.putBack(link)
      throw err
    }
    store.markUsed(link)
    const status = (err as AppFailure).error.status
    throw new AppFailure({ code: 'UNAUTHORIZED', status, message: LINK_USED })
  } finally {
    client.close()
  }
  store.markUsed(link)
  if (kind === 'sso') return finishSso(ctx, row, String(answer.token))
  if (kind === 'invite') return finishInvite(ctx, row, answer)
  if (kind === 'confirm') {
    const email = (answer.data as { email?: unknown } | undefined)?.email
    const who = typeof email === 'string' ? email : 'The user'
    return { kind, accountId: row.id, message: `${who} is confirmed and can sign in now.` }
  }
  return {
    kind,
    accountId: row.id,
    message: `The new password is set. Sign in to “${row.label}” with it if this was its user.`,
  }
}
