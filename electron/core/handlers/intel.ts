import { importPackFile } from '../intel/pack-import'
import type { HandlerContext } from './context'
import type { HandlerTable } from './dispatch'

/** intel.packs / intel.import: the exploit-intelligence packs (issue 37 §1), one set for the app. */
export function intelHandlers(
  ctx: HandlerContext,
): Pick<HandlerTable, 'intel.packs' | 'intel.import'> {
  return {
    'intel.packs': async () => ctx.packs.list(),
    'intel.import': async (input) => {
      ctx.accounts.row(input.accountId)
      return importPackFile(
        {
          mode: ctx.mode,
          host: ctx.host,
          folders: ctx.exports.folders,
          packs: ctx.packs,
          now: () => new Date(),
        },
        input,
      )
    },
  }
}
