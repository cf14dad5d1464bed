import fs from 'node:fs'
import type { z } from 'zod'
import { baseUrlProblem, normaliseBaseUrl, type AccountView } from '@contract/accounts'
import { AppFailure, fail } from '@contract/errors'
import type {
  ConnectionTest,
  detectReleaseInput,
  ReleaseDetection,
  RemovalPlan,
  updateAccountInput,
} from '@contract/sessions'
import type { HandlerContext } from '../handlers/context'
import type { AccountClient } from '../http/client'
import type { AuthCredential } from '../http/options'
import type { AccountPatch, AccountRow } from '../store/accounts-repo'
import { apiKeyRefused, PROBE_CREDENTIAL, probeRelease } from './release-probe'
import { hostConfirm, requireTrust } from './trust'
import { WRONG_API_KEY } from './sign-in'
import { SECRET_KINDS } from './vault'

/*
 * Account maintenance: edit, test the connection, detect the release, say what removal deletes,
 * ask for a password-reset e-mail. Checks use clients of their own (outside the pool and its
 * session gate), so a refused session during a test does not pause the account.
 */

/** The parsed payload of accounts.update. */
export type UpdateAccountInput = z.output<typeof updateAccountInput>
/** The parsed payload of accounts.detectRelease. */
export type DetectReleaseInput = z.output<typeof detectReleaseInput>

const CHECK_DEADLINE_MS = 10_000

/** Writes some fields of an account's row (no secrets); UNKNOWN_ACCOUNT when it is gone. */
export function patchAccount(
  ctx: HandlerContext,
  accountId: string,
  patch: AccountPatch,
): AccountRow {
  return (
    ctx.accountsRepo.update(accountId, patch, new Date().toISOString()) ??
    fail('UNKNOWN_ACCOUNT', 'That account does not exist.')
  )
}

/** Changes label, colour, release, API key (keychain) or CA bundle (null removes it). */
export async function updateAccount(
  ctx: HandlerContext,
  input: UpdateAccountInput,
): Promise<AccountView> {
  const row = ctx.accounts.row(input.accountId)
  if (input.caBundle && input.caBundle !== row.caBundle)
    await requireTrust(
      { baseUrl: row.baseUrl, caBundle: input.caBundle },
      hostConfirm(ctx.mode, ctx.host),
      input.trustConfirmation,
    )
  const patch: AccountPatch = {}
  if (input.label !== undefined) patch.label = input.label
  if (input.color !== undefined) patch.color = input.color
  if (input.release !== undefined) patch.release = input.release
  if (input.caBundle !== undefined) patch.caBundle = input.caBundle
  if (input.apiKey !== undefined) await ctx.vault.set(row.id, 'api_key', input.apiKey)
  const updated = patchAccount(ctx, row.id, patch)
  // The pooled client holds the API key it was built with (it follows row changes by itself).
  if (input.apiKey !== undefined) ctx.clients.forget(row.id)
  await ctx.accounts.notify()
  return ctx.accounts.view(updated)
}

/** A client for checks of a stored account: release 'latest' (no probe refused), no gate. */
function checkClient(
  ctx: HandlerContext,
  row: AccountRow,
  auth: AuthCredential | null,
): Promise<AccountClient> {
  return ctx.clients.oneOff({ ...row, release: 'latest' }, auth ?? PROBE_CREDENTIAL)
}

/** Probes a stored account, or a service that is not added yet, for its release. */
export async function detectRelease(
  ctx: HandlerContext,
  input: DetectReleaseInput,
): Promise<ReleaseDetection> {
  if ('accountId' in input) {
    const row = ctx.accounts.row(input.accountId)
    const auth = await ctx.clients.credential(row)
    const client = await checkClient(ctx, row, auth)
    try {
      return await probeRelease(client, auth !== null)
    } finally {
      client.close()
    }
  }
  const problem = baseUrlProblem(input.baseUrl, input.allowInsecureHttp === true)
  if (problem)
    fail('VALIDATION', `The address ${problem}.`, { fieldErrors: { baseUrl: [problem] } })
  await requireTrust(
    {
      baseUrl: normaliseBaseUrl(input.baseUrl),
      caBundle: input.caBundle,
      allowInsecureHttp: input.allowInsecureHttp,
    },
    hostConfirm(ctx.mode, ctx.host),
    input.trustConfirmation,
  )
  const client = await ctx.clients.create({
    baseUrl: normaliseBaseUrl(input.baseUrl),
    apiKey: input.apiKey,
    release: 'latest',
    ...(input.caBundle ? { caBundle: input.caBundle } : {}),
    getAuth: () => PROBE_CREDENTIAL,
  })
  try {
    return await probeRelease(client, false)
  } finally {
    client.close()
  }
}

type SessionCheck = Pick<ConnectionTest, 'reachable' | 'apiKeyAccepted' | 'session'> & {
  failure: AppFailure | null
}

/** user.token_validity: reaches the service, checks the API key and (when signed in) the session. */
async function checkSession(client: AccountClient, signedIn: boolean): Promise<SessionCheck> {
  try {
    const answer = (await client.call(
      'user.token_validity',
      {},
      {
        deadlineMs: CHECK_DEADLINE_MS,
      },
    )) as { data?: { attributes?: { valid?: boolean } } }
    const valid = answer.data?.attributes?.valid !== false
    return {
      reachable: true,
      apiKeyAccepted: true,
      session: valid ? 'valid' : 'expired',
      failure: null,
    }
  } catch (err) {
    const failure = err instanceof AppFailure ? err : null
    const status = failure?.error.status
    if (status === undefined)
      return { reachable: false, apiKeyAccepted: null, session: 'none', failure }
    if (apiKeyRefused(err))
      return { reachable: true, apiKeyAccepted: false, session: 'none', failure }
    if (status === 401)
      return {
        reachable: true,
        apiKeyAccepted: true,
        session: signedIn ? 'expired' : 'none',
        failure,
      }
    return { reachable: true, apiKeyAccepted: null, session: 'none', failure }
  }
}

function testMessage(
  row: AccountRow,
  t: Omit<ConnectionTest, 'message' | 'checkedAt'>,
  failure: AppFailure | null,
): string {
  if (!t.reachable)
    return `ScanDesk could not reach ${row.baseUrl}: ${failure?.error.message ?? 'no answer.'}`
  if (t.apiKeyAccepted === false) return WRONG_API_KEY
  const parts = [`The service answered in ${t.latencyMs} ms.`]
  if (t.apiKeyAccepted === null && failure) parts.push(failure.error.message)
  else parts.push('The API key is accepted.')
  parts.push(
    t.session === 'valid'
      ? 'The session is valid.'
      : t.session === 'expired'
        ? 'The session has ended: sign in again.'
        : 'Not signed in.',
  )
  if (t.detectedRelease && t.detectedRelease !== row.release)
    parts.push(
      `The service looks like release ${t.detectedRelease}, but the account is set to ${row.release}.`,
    )
  else if (t.detectedRelease) parts.push(`Release ${t.detectedRelease}, as set.`)
  return parts.join(' ')
}

/** accounts.test: reachability and latency, API key, session, and the detected release. */
export async function testConnection(
  ctx: HandlerContext,
  accountId: string,
): Promise<ConnectionTest> {
  const row = ctx.accounts.row(accountId)
  const auth = await ctx.clients.credential(row)
  const client = await checkClient(ctx, row, auth)
  try {
    const started = performance.now()
    const check = await checkSession(client, auth !== null)
    const latencyMs = check.reachable ? Math.round(performance.now() - started) : null
    let detectedRelease: ConnectionTest['detectedRelease'] = null
    if (check.reachable && check.apiKeyAccepted !== false)
      detectedRelease = await probeRelease(client, check.session === 'valid')
        .then((d) => d.release)
        .catch(() => null)
    const result = { ...check, latencyMs, detectedRelease }
    return {
      reachable: result.reachable,
      apiKeyAccepted: result.apiKeyAccepted,
      session: result.session,
      latencyMs,
      detectedRelease,
      message: testMessage(row, result, check.failure),
      checkedAt: new Date().toISOString(),
    }
  } finally {
    client.close()
  }
}

/** How many saved views the account keeps (one sealed document); null when it does not open. */
async function savedViewsOf(ctx: HandlerContext, accountId: string): Promise<number | null> {
  try {
    const draft = await ctx.drafts.get(accountId, 'saved-views', '')
    if (!draft) return ctx.drafts.counts(accountId)['saved-views'] ? null : 0
    const views = (draft.data as { views?: unknown } | null)?.views
    return Array.isArray(views) ? views.length : null
  } catch {
    return null
  }
}

/** What removing the account deletes (and keeps), for the confirmation. */
export async function removalPlan(ctx: HandlerContext, accountId: string): Promise<RemovalPlan> {
  const row = ctx.accounts.row(accountId)
  const secrets = await Promise.all(SECRET_KINDS.map((kind) => ctx.vault.get(row.id, kind)))
  const ledger = ctx.exports.library.list({ accountId: row.id })
  const paths = new Set(ledger.map((e) => e.path))
  let filesKept = 0
  for (const p of paths) if (fs.existsSync(p)) filesKept++
  const draftsByKind = ctx.drafts.counts(row.id)
  const outbox = ctx.outbox.counts(row.id)
  return {
    accountId: row.id,
    label: row.label,
    keychainEntries: secrets.filter((s) => s !== null).length,
    exportJobs: ctx.exports.jobs.list(row.id).length,
    // Ledger rows stay (marked "removed") because their files stay on disk.
    ledgerEntries: ledger.length,
    // Counted from what is stored, sealed or not: no key is needed, and none is made.
    cachedRecords: ctx.cache.entries(row.id),
    drafts: draftsByKind.saq + draftsByKind['scan-wizard'],
    draftsByKind,
    outboxItems: outbox.queued + outbox.failed,
    runSnapshots: ctx.snapshots.count(row.id),
    savedViews: await savedViewsOf(ctx, row.id),
    bulkRuns: ctx.bulk.count(row.id),
    dailyTotals: ctx.dailyTotals.count(row.id),
    filesKept,
  }
}

/** Asks the service to e-mail a password-reset link to the account's user name. */
export async function requestPasswordReset(
  ctx: HandlerContext,
  accountId: string,
): Promise<{ sent: true; message: string }> {
  const row = ctx.accounts.row(accountId)
  if (!row.username.includes('@'))
    fail(
      'BAD_REQUEST',
      `“${row.label}” has no e-mail address as its user name, so the service cannot send a reset link.`,
    )
  const client = await checkClient(ctx, row, null)
  try {
    await client.call(
      'auth.password_reset_request',
      { body: { email: row.username } },
      { deadlineMs: CHECK_DEADLINE_MS },
    )
  } finally {
    client.close()
  }
  return {
    sent: true,
    message: `If ${row.username} has an account at ${new URL(row.baseUrl).host}, a password-reset e-mail is on its way. Open its link in ScanDesk to choose a new password.`,
  }
}
