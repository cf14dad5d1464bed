import type { OperationDef } from '@contract/catalog/types'
import type { ApiCallOutput } from '@contract/channels'
import { AppFailure, fail } from '@contract/errors'
import { noCopyMessage } from '@contract/offline'
import type { AccountClient } from '../http/client'
import { prepareRequest, type CallInput } from '../http/request'
import type { AccountRow } from '../store/accounts-repo'
import type { CacheOwner, CacheStore, CachedAnswer } from './cache-store'
import { checkedCopy } from './checked-copy'
import { isUnreachable, type ConnectivityMonitor } from './connectivity'
import type { RoutedOutbox } from './outbox-routed'
import { isCacheable } from './policy'

/** What one api.call needs besides the operation and its input. */
export interface OfflineCallDeps {
  cache: CacheStore
  connectivity: ConnectivityMonitor
  outbox: Pick<RoutedOutbox, 'enqueue' | 'hasQueued'>
  /**
   * Whose offline copy the account's reads use now: the signed-in identity (an impersonated user
   * has their own), or null when the account is signed out (no copy is read or written).
   */
  owner: (accountId: string) => Promise<CacheOwner | null>
  /** The account's gated client (starting the demo service first when needed). */
  client: (row: AccountRow) => Promise<AccountClient>
  /**
   * True while the account's calls wait for the user to sign in again (the session gate is
   * paused): reads answer from the copy at once, queueable writes go to the outbox.
   */
  awaitingSignIn?: (accountId: string) => boolean
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
}

/** The canonical text of a read: operation, path and checked query (keys in schema order). */
export function requestText(op: OperationDef, input: CallInput): string {
  const { url, params } = prepareRequest(op, input)
  return `${op.id} ${url} ${JSON.stringify(params ?? {})}`
}

function messageOf(err: unknown): string {
  return err instanceof AppFailure ? err.error.message : 'The service cannot be reached.'
}

function fromCopy(copy: CachedAnswer): ApiCallOutput {
  return {
    data: copy.data,
    fetchedAt: copy.fetchedAt,
    fromCache: true,
    ...(copy.warnings?.length ? { warnings: copy.warnings } : {}),
  }
}

/**
 * (Connectivity hears of every outcome from the account's client itself: ClientPool observes.)
 *
 * A cacheable read: network first (conditional when a copy is held: 304 keeps the copy as
 * current), the copy refreshed; when the service cannot be reached, or is known not to answer
 * right now, the copy is served with its age; without a copy, OFFLINE says it was never opened.
 * The copy is the signed-in identity's; one the user signed out of reads online only (and is
 * refused), one whose session the service ended is served its copy.
 */
async function read(
  deps: OfflineCallDeps,
  row: AccountRow,
  op: OperationDef,
  input: CallInput,
  signal: AbortSignal | undefined,
): Promise<ApiCallOutput> {
  const owner = await deps.owner(row.id)
  if (!owner) return online(deps, row, op, input, signal)
  const request = requestText(op, input)
  /** The stored copy if it still fits the operation's schema (checkedCopy), else null. */
  const copyOf = async (): Promise<CachedAnswer | null> => {
    const copy = await deps.cache.get(owner, request)
    if (!copy) return null
    const checked = checkedCopy(op, copy)
    if (!checked) deps.log?.('warn', `${op.id}: the offline copy does not fit its answer; not used`)
    return checked
  }
  const servedFromCopy = async (orElse: () => never): Promise<ApiCallOutput> => {
    const copy = await copyOf()
    return copy ? fromCopy(copy) : orElse()
  }
  const blocked = deps.connectivity.blockedReason()
  if (blocked) return servedFromCopy(() => fail('OFFLINE', noCopyMessage(blocked)))
  // Waiting for a new sign-in: what was opened before answers now, marked as the copy; without
  // one the read waits for the sign-in at most its deadline (the gate), then says so.
  if (deps.awaitingSignIn?.(row.id)) {
    const copy = await copyOf()
    if (copy) return fromCopy(copy)
  }
  // Validators from memory when known: an online read does not open its copy.
  const validators = await deps.cache.validators(owner, request)
  if (validators && deps.connectivity.knownUnreachable(row.id)) {
    const copy = await copyOf()
    if (copy) {
      deps.connectivity.nudge(row.id)
      return fromCopy(copy)
    }
  }
  try {
    const client = await deps.client(row)
    let outcome = await client.read(op.id, input, validators, { signal, tolerant: true })
    const fetchedAt = new Date().toISOString()
    // Who is signed in changed while the answer came (impersonation began or ended, signed
    // out): the answer is shown, but kept in nobody's copy.
    const still = sameOwner(owner, await deps.owner(row.id))
    if (outcome.notModified) {
      const copy = await copyOf()
      if (copy) {
        if (still) await deps.cache.touch(owner, request, fetchedAt)
        return { ...fromCopy(copy), fetchedAt, fromCache: false }
      }
      // The copy went meanwhile (evicted, cleared) or no longer fits: ask for the answer itself.
      outcome = await client.read(op.id, input, null, { signal, tolerant: true })
      if (outcome.notModified)
        fail('BAD_RESPONSE', 'The service said “not modified” for something never fetched.')
    }
    // The log names the fields read tolerantly, never their values.
    if (outcome.tolerated.length)
      deps.log?.('warn', `${op.id}: answer read tolerantly at ${outcome.tolerated.join(', ')}`)
    const warnings = outcome.warnings.length ? { warnings: outcome.warnings } : {}
    if (still)
      await deps.cache.put(owner, request, {
        data: outcome.data,
        fetchedAt,
        etag: outcome.etag,
        lastModified: outcome.lastModified,
        ...warnings,
      })
    return { data: outcome.data, fetchedAt, fromCache: false, ...warnings }
  } catch (err) {
    // Signed out by the service (a session that ended; not one the user ended: that one has no
    // owner): what was opened before stays readable, marked as the offline copy.
    const signedOut = err instanceof AppFailure && err.error.code === 'NOT_SIGNED_IN'
    if (!isUnreachable(err) && !signedOut) throw err
    const orElse = signedOut
      ? () => {
          throw err
        }
      : () => fail('OFFLINE', noCopyMessage(messageOf(err)))
    // Not another identity's copy when who is signed in changed meanwhile.
    return sameOwner(owner, await deps.owner(row.id)) ? servedFromCopy(orElse) : orElse()
  }
}

function sameOwner(a: CacheOwner, b: CacheOwner | null): boolean {
  return b !== null && a.accountId === b.accountId && a.identity === b.identity
}

/**
 * A write that is safe to send later (policy "queue"): sent now when the service answers, kept
 * in the outbox (behind any earlier ones, to keep their order) when it cannot be reached or the
 * account waits for a new sign-in (replayed once signed in).
 */
async function queueable(
  deps: OfflineCallDeps,
  row: AccountRow,
  op: OperationDef,
  input: CallInput,
  signal: AbortSignal | undefined,
): Promise<ApiCallOutput> {
  const keep = async (): Promise<ApiCallOutput> => ({
    data: null,
    fetchedAt: new Date().toISOString(),
    fromCache: false,
    queued: { id: (await deps.outbox.enqueue(row, op, input)).id },
  })
  if (
    deps.connectivity.knownUnreachable(row.id) ||
    deps.outbox.hasQueued(row.id) ||
    deps.awaitingSignIn?.(row.id)
  )
    return keep()
  try {
    const client = await deps.client(row)
    const data = await client.call(op.id, input, { signal })
    return { data, fetchedAt: new Date().toISOString(), fromCache: false }
  } catch (err) {
    if (isUnreachable(err)) return keep()
    throw err
  }
}

/** Any other operation: online only; refused at once, nothing sent, when requests are blocked. */
async function online(
  deps: OfflineCallDeps,
  row: AccountRow,
  op: OperationDef,
  input: CallInput,
  signal: AbortSignal | undefined,
): Promise<ApiCallOutput> {
  const blocked = deps.connectivity.blockedReason()
  if (blocked) fail('OFFLINE', `${blocked} Nothing was sent; retry when you are back online.`)
  const client = await deps.client(row)
  const data = await client.call(op.id, input, { signal })
  return { data, fetchedAt: new Date().toISOString(), fromCache: false }
}

/** Runs one operation for an account under its offline policy. */
export function offlineCall(
  deps: OfflineCallDeps,
  row: AccountRow,
  op: OperationDef,
  input: CallInput,
  signal: AbortSignal | undefined,
): Promise<ApiCallOutput> {
  if (isCacheable(op)) return read(deps, row, op, input, signal)
  if (op.offline === 'queue') return queueable(deps, row, op, input, signal)
  return online(deps, row, op, input, signal)
}
