import type { HandlerTable } from './dispatch'
import type { HandlerContext } from './context'

type AccountChannels =
  | 'accounts.list'
  | 'accounts.add'
  | 'accounts.signIn'
  | 'accounts.signOut'
  | 'accounts.remove'
  | 'accounts.setActive'

/** The accounts.* channels: thin wrappers over the account service (which emits the changes). */
export function accountHandlers(ctx: HandlerContext): Pick<HandlerTable, AccountChannels> {
  return {
    'accounts.list': () => ctx.accounts.list(),
    'accounts.add': (input) => ctx.accounts.add(input),
    'accounts.signIn': (input) => ctx.accounts.signIn(input.accountId, input.password),
    'accounts.signOut': (input) => ctx.accounts.signOut(input.accountId),
    'accounts.remove': async (input) => {
      const result = await ctx.accounts.remove(input.accountId)
      ctx.connectivity.forget(input.accountId)
      return result
    },
    'accounts.setActive': (input) => ctx.accounts.setActive(input.accountId),
  }
}
