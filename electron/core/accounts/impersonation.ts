import type { AccountView } from '@contract/accounts'
import { AppFailure, fail } from '@contract/errors'
import type { HandlerContext } from '../handlers/context'
import type { AccountClient } from '../http/client'
import { ServiceFailure } from '../http/errors'
import type { AccountRow } from '../store/accounts-repo'
import { patchAccount } from './maintenance'

/*
 * Impersonation: an administrator's account acts as another user. auth.impersonate answers a
 * session for that user; the administrator's own session is set aside in the vault
 * ('impersonator_token') and the new one becomes the account's session. Stopping calls
 * auth.stop_impersonation with the impersonated session and goes back to the administrator:
 * the fresh session the service answers, or the one set aside.
 */

const SIGN_OUT_DEADLINE_MS = 5_000

/** A client of the account with a given Bearer token, outside the pool's cache and session gate. */
export function clientWithToken(
  ctx: HandlerContext,
  row: AccountRow,
  token: string | null,
): Promise<AccountClient> {
  return ctx.clients.oneOff(row, token ? { scheme: 'Bearer', token } : null)
}

/** Ends a session at the service when it can; never throws (used to tidy up). */
export async function endSessionQuietly(
  ctx: HandlerContext,
  row: AccountRow,
  token: string,
): Promise<void> {
  try {
    const client = await clientWithToken(ctx, row, token)
    try {
      await client.call('auth.sign_out', {}, { deadlineMs: SIGN_OUT_DEADLINE_MS })
    } finally {
      client.close()
    }
  } catch {
    // Unreachable or already ended: the token is forgotten here either way.
  }
}

function impersonationFailure(err: unknown, row: AccountRow, userId: string): unknown {
  if (!(err instanceof AppFailure)) return err
  const detail = err instanceof ServiceFailure ? (err.serviceDetail ?? '') : ''
  const { code, status } = err.error
  if (code === 'FORBIDDEN' && /only administrators/i.test(detail))
    return new AppFailure({
      code,
      status,
      message: `Only an administrator can act as another user, and ${row.username} (“${row.label}”) is not one.`,
    })
  if (code === 'NOT_FOUND')
    return new AppFailure({
      code,
      status,
      message: `There is no user ${userId} that ${row.username} may act as.`,
    })
  return err
}

/** Starts acting as `userId` from an administrator's (password) account. */
export async function impersonate(
  ctx: HandlerContext,
  accountId: string,
  userId: string,
): Promise<AccountView> {
  const row = ctx.accounts.row(accountId)
  if (row.authMethod !== 'password')
    fail(
      'BAD_REQUEST',
      `“${row.label}” signs in with an access token; acting as another user needs an administrator’s password sign-in.`,
    )
  if (row.impersonating)
    fail(
      'CONFLICT',
      `“${row.label}” is already acting as ${row.impersonating.email}; stop that first.`,
    )
  const admin = await ctx.clients.credential(row)
  if (!admin) fail('NOT_SIGNED_IN', `Sign in to “${row.label}” first.`)
  const client = await ctx.accounts.clientFor(accountId)
  let answer: { token: string; data: { user_id: string; email: string } }
  try {
    answer = (await client.call('auth.impersonate', { body: { user_id: userId } })) as typeof answer
  } catch (err) {
    throw impersonationFailure(err, row, userId)
  }
  // The gate may have replaced the administrator's session (re-sign-in) while the call waited.
  const adminToken = (await ctx.clients.credential(row))?.token ?? admin.token
  try {
    await ctx.vault.set(row.id, 'impersonator_token', adminToken)
    patchAccount(ctx, row.id, {
      impersonating: {
        userId: answer.data.user_id,
        email: answer.data.email,
        since: new Date().toISOString(),
      },
    })
    return await ctx.accounts.adoptSession(row.id, answer.token)
  } catch (err) {
    // Nothing half-done stays: the administrator's session is the account's session again.
    patchAccount(ctx, row.id, { impersonating: null })
    await ctx.vault.delete(row.id, 'impersonator_token').catch(() => undefined)
    await endSessionQuietly(ctx, row, answer.token)
    throw err
  }
}

/** Goes back to the administrator's session (or signed out when none is left) and clears the mark. */
async function restoreAdministrator(
  ctx: HandlerContext,
  row: AccountRow,
  adminToken: string | null,
): Promise<AccountView> {
  await ctx.vault.delete(row.id, 'impersonator_token')
  patchAccount(ctx, row.id, { impersonating: null })
  if (adminToken) return ctx.accounts.adoptSession(row.id, adminToken)
  await ctx.vault.delete(row.id, 'session_token')
  ctx.clients.remember(row.id, null)
  await ctx.accounts.notify()
  return ctx.accounts.view(ctx.accounts.row(row.id))
}

function sessionGone(err: unknown): boolean {
  return err instanceof AppFailure && err.error.code === 'UNAUTHORIZED'
}

/**
 * Stops acting as the user: auth.stop_impersonation with the impersonated session, then the
 * administrator's session is back. When the service is unreachable nothing changes (try again);
 * when it no longer knows the impersonated session, the set-aside session is restored.
 */
export async function stopImpersonation(
  ctx: HandlerContext,
  accountId: string,
): Promise<AccountView> {
  const row = ctx.accounts.row(accountId)
  if (!row.impersonating) return ctx.accounts.view(row)
  const current = await ctx.vault.get(row.id, 'session_token')
  const stash = await ctx.vault.get(row.id, 'impersonator_token')
  let fresh: string | null = null
  if (current) {
    const client = await clientWithToken(ctx, row, current)
    try {
      const answer = (await client.call('auth.stop_impersonation')) as { token?: string }
      fresh = typeof answer.token === 'string' && answer.token ? answer.token : null
    } catch (err) {
      if (!sessionGone(err)) throw err
    } finally {
      client.close()
    }
  }
  const view = await restoreAdministrator(ctx, row, fresh ?? stash)
  // The service gave a fresh administrator session: the one set aside is not needed any more.
  if (fresh && stash && stash !== fresh) await endSessionQuietly(ctx, row, stash)
  return view
}

/**
 * For sign-out (and removal): when the account is acting as a user, stops that first. Never
 * throws for the service's sake: when stopping fails, the administrator's session is restored
 * locally so the caller can end it. Resolves true when the account was impersonating.
 */
export async function stopImpersonationIfAny(
  ctx: HandlerContext,
  accountId: string,
): Promise<boolean> {
  let row: AccountRow
  try {
    row = ctx.accounts.row(accountId)
  } catch {
    return false
  }
  if (!row.impersonating) return false
  try {
    await stopImpersonation(ctx, accountId)
  } catch {
    const stash = await ctx.vault.get(row.id, 'impersonator_token').catch(() => null)
    await restoreAdministrator(ctx, row, stash)
  }
  return true
}
