import type { HandlerTable } from './dispatch'
import type { HandlerContext } from './context'

/** app.info: mode, version and whether the keychain is available. */
export function appHandlers(ctx: HandlerContext): Pick<HandlerTable, 'app.info'> {
  return {
    'app.info': async () => ({
      mode: ctx.mode,
      version: ctx.version,
      keychain: await ctx.vault.status(),
    }),
  }
}
