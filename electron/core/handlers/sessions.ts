import { impersonate, stopImpersonation } from '../accounts/impersonation'
import { completeLink, linkStoreOf, openLink } from '../accounts/links'
import {
  detectRelease,
  removalPlan,
  requestPasswordReset,
  testConnection,
  updateAccount,
} from '../accounts/maintenance'
import type { HandlerTable } from './dispatch'
import type { HandlerContext } from './context'

type SessionChannels =
  | 'accounts.update'
  | 'accounts.test'
  | 'accounts.detectRelease'
  | 'accounts.removalPlan'
  | 'accounts.impersonate'
  | 'accounts.stopImpersonation'
  | 'accounts.requestPasswordReset'
  | 'accounts.openWindow'
  | 'links.open'
  | 'links.complete'
  | 'links.dismiss'

/** Account maintenance, impersonation, windows and e-mail links (the sign-in flows live elsewhere). */
export function sessionHandlers(ctx: HandlerContext): Pick<HandlerTable, SessionChannels> {
  return {
    'accounts.update': (input) => updateAccount(ctx, input),
    'accounts.test': ({ accountId }) => testConnection(ctx, accountId),
    'accounts.detectRelease': (input) => detectRelease(ctx, input),
    'accounts.removalPlan': ({ accountId }) => removalPlan(ctx, accountId),
    'accounts.impersonate': ({ accountId, userId }) => impersonate(ctx, accountId, userId),
    'accounts.stopImpersonation': ({ accountId }) => stopImpersonation(ctx, accountId),
    'accounts.requestPasswordReset': ({ accountId }) => requestPasswordReset(ctx, accountId),
    'accounts.openWindow': async ({ accountId }) => {
      ctx.accounts.row(accountId)
      return ctx.host.openAccountWindow(accountId)
    },
    'links.open': ({ link }) => openLink(ctx, link),
    'links.complete': (input) => completeLink(ctx, input),
    'links.dismiss': async ({ linkId }) => ({
      dismissed: linkStoreOf(ctx.accounts).dismiss(linkId),
    }),
  }
}
