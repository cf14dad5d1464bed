import { accountHandlers } from './accounts'
import { changesHandlers } from './changes'
import { apiHandlers } from './api'
import { appHandlers } from './app'
import { bulkHandlers } from './bulk'
import type { HandlerContext } from './context'
import { csvExportsOf, csvHandlers } from './csv'
import { demoHandlers } from './demo'
import { draftsHandlers } from './drafts'
import { filesHandlers } from './files'
import { offlineHandlers } from './offline'
import type { HandlerTable } from './dispatch'
import { sessionHandlers } from './sessions'
import { settingsHandlers } from './settings'
import { sinceHandlers } from './since'
import { trendsHandlers } from './trends'
import { viewsHandlers } from './views'
import { intelHandlers } from './intel'
import { assetHandlers } from './assets'
import { remediationHandlers } from './remediation'

/** The one handler table behind the channel map, used by the IPC wiring and browser mode. */
export function createHandlerTable(ctx: HandlerContext): HandlerTable {
  const csv = csvExportsOf(ctx)
  return {
    ...appHandlers(ctx),
    ...apiHandlers(ctx),
    ...accountHandlers(ctx),
    ...demoHandlers(ctx),
    ...settingsHandlers(ctx),
    ...filesHandlers(ctx),
    ...sessionHandlers(ctx),
    ...draftsHandlers(ctx.drafts),
    ...offlineHandlers(ctx),
    ...csvHandlers(ctx, csv),
    ...changesHandlers(ctx.changes, ctx, csv),
    ...viewsHandlers(ctx),
    ...bulkHandlers(ctx),
    ...sinceHandlers(ctx.since, ctx),
    ...remediationHandlers(ctx.remediation, (id) => ctx.accountsRepo.get(id) !== undefined),
    ...trendsHandlers(ctx.dailyTotals, ctx),
    ...intelHandlers(ctx),
    ...assetHandlers(ctx),
  }
}
