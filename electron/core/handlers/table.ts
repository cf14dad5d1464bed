import { accountHandlers } from './accounts'
import { apiHandlers } from './api'
import { appHandlers } from './app'
import { bulkHandlers } from './bulk'
import type { HandlerContext } from './context'
import { csvHandlers } from './csv'
import { demoHandlers } from './demo'
import { draftsHandlers } from './drafts'
import { filesHandlers } from './files'
import { offlineHandlers } from './offline'
import type { HandlerTable } from './dispatch'
import { sessionHandlers } from './sessions'
import { settingsHandlers } from './settings'

/** The one handler table behind the channel map, used by the IPC wiring and browser mode. */
export function createHandlerTable(ctx: HandlerContext): HandlerTable {
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
    ...csvHandlers(ctx),
    ...bulkHandlers(ctx),
  }
}
