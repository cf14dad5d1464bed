import type { AccountsRepo } from '../store/accounts-repo'
import type { ClientPool } from './client-pool'

/** Who is signed in to an account, as the offline copy names its entries. */
export interface SignedInIdentity {
  accountId: string
  /** `user <username>`, or `acting as <user id>` while an administrator acts as that user. */
  identity: string
}

/**
 * Whose offline copy the account's reads use: the signed-in user, or the user an administrator
 * acts as. A session the service ended (expired, refused, re-sign-in cancelled) keeps its last
 * identity, so what was opened stays readable, marked as the copy; after the user signed out
 * (`copyLocked`) there is none (null) until the next sign-in, which lifts the lock. Null for an
 * account that is gone. Each identity has its own offline copy.
 */
export async function signedInIdentity(
  accounts: AccountsRepo,
  clients: ClientPool,
  accountId: string,
): Promise<SignedInIdentity | null> {
  let row = accounts.get(accountId)
  if (!row) return null
  const signedIn = !!(await clients.credential(row))
  if (!signedIn && row.copyLocked) return null
  if (signedIn && row.copyLocked) row = accounts.update(row.id, { copyLocked: false }) ?? row
  const identity = row.impersonating
    ? `acting as ${row.impersonating.userId}`
    : `user ${row.username}`
  return { accountId: row.id, identity }
}
