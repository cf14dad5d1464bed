import { withApiKey } from '../accounts/reused-key'
import { hostConfirm, requireTrust } from '../accounts/trust'
import type { HandlerTable } from './dispatch'
import type { HandlerContext } from './context'

type AccountChannels =
  | 'accounts.list'
  | 'accounts.add'
  | 'accounts.signIn'
  | 'accounts.signOut'
  | 'accounts.remove'
  | 'accounts.setActive'
  | 'accounts.secondFactor'
  | 'accounts.sendSms'
  | 'accounts.cancelChallenge'
  | 'accounts.setRemember'
  | 'accounts.accessToken'
  | 'accounts.cancelReauth'

/** The accounts.* sign-in channels: thin wrappers over the account service (which emits the changes). */
export function accountHandlers(ctx: HandlerContext): Pick<HandlerTable, AccountChannels> {
  const a = ctx.accounts
  return {
    'accounts.list': () => a.list(),
    'accounts.add': async (input) => {
      // What the user asked to trust anew; a reused key brings its account's trust, given before.
      await requireTrust(
        {
          baseUrl: input.baseUrl,
          caBundle: input.caBundle,
          allowInsecureHttp: input.allowInsecureHttp,
        },
        hostConfirm(ctx.mode, ctx.host),
        input.trustConfirmation,
      )
      return a.add(await withApiKey(input, { source: (id) => a.row(id), vault: ctx.vault }))
    },
    'accounts.signIn': (input) => a.signIn(input.accountId, input.password, input.remember),
    'accounts.signOut': async (input) => {
      try {
        return await a.signOut(input.accountId)
      } finally {
        // Asked for at sign-out: the copy goes even when the keychain could not finish its part.
        if (input.clearOfflineCopy && ctx.accountsRepo.get(input.accountId)) {
          ctx.cache.clear(input.accountId)
          ctx.cache.checkpoint()
          // Run snapshots are findings kept from the service too: they go with the copy.
          ctx.snapshots.clear(input.accountId)
        }
      }
    },
    'accounts.remove': async (input) => {
      try {
        return await a.remove(input.accountId)
      } finally {
        // Once the account is gone (even when the keychain could not finish its deletes): its
        // offline copy goes with it (its key went with its other secrets), and what this run
        // kept of it in memory.
        if (!ctx.accountsRepo.get(input.accountId)) {
          ctx.connectivity.forget(input.accountId)
          ctx.cache.dropAccount(input.accountId)
          ctx.session.forget(input.accountId)
          ctx.drafts.forget(input.accountId)
        }
      }
    },
    'accounts.setActive': (input) => a.setActive(input.accountId),
    'accounts.secondFactor': (input) => a.secondFactor(input.challengeId, input.method, input.code),
    'accounts.sendSms': (input) => a.sendSms(input.challengeId),
    'accounts.cancelChallenge': (input) => a.cancelChallenge(input.challengeId),
    'accounts.setRemember': (input) =>
      a.setRemember(input.accountId, input.remember, input.password),
    'accounts.accessToken': (input) => a.accessToken(input.accountId, input.action),
    'accounts.cancelReauth': (input) => a.cancelReauth(input.accountId),
  }
}
