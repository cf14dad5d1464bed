import type { AccountsRepo } from '../store/accounts-repo'
import type { ClientPool } from './client-pool'

/** Who is signed in to an account, as the offline copy names its entries. */
export interface SignedInIdentity {
  accountId: string
  /** `user <username>`, or `acting as <user id>` while an administrator acts as that user. */
  identity: string
}

/**
 * Who is signed in to the account now: the account's user, or the user an administrator acts as;
 * null when it is signed out (or gone). Each identity has its own offline copy.
 */
export async function signedInIdentity(
  accounts: AccountsRepo,
  clients: ClientPool,
  accountId: string,
): Promise<SignedInIdentity | null> {
  const row = accounts.get(accountId)
  if (!row || !(await clients.credential(row))) return null
  const identity = row.impersonating
    ? `acting as ${row.impersonating.userId}`
    : `user ${row.username}`
  return { accountId: row.id, identity }
}
