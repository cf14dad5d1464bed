import { AssetFiles } from '../intel/asset-files'
import type { HandlerContext } from './context'
import type { HandlerTable } from './dispatch'

type AssetChannels =
  'assets.get' | 'assets.set' | 'assets.setRules' | 'assets.export' | 'assets.import'

/**
 * assets.*: each account's asset context (issue 37 §2): read, set on a target or host, its rules
 * replaced, exported to and imported from a JSON file (to several accounts at once).
 */
export function assetHandlers(ctx: HandlerContext): Pick<HandlerTable, AssetChannels> {
  const files = new AssetFiles({
    mode: ctx.mode,
    host: ctx.host,
    folders: ctx.exports.folders,
    repo: ctx.assets,
    accountLabel: (accountId) => ctx.accounts.row(accountId).label,
    now: () => new Date(),
    journal: ctx.exports.pending,
  })
  return {
    'assets.get': async ({ accountId }) => {
      ctx.accounts.row(accountId)
      return ctx.assets.get(accountId)
    },
    'assets.set': async ({ accountId, place, context }) => {
      ctx.accounts.row(accountId)
      return ctx.assets.set(accountId, place, context)
    },
    'assets.setRules': async ({ accountId, rules }) => {
      ctx.accounts.row(accountId)
      return ctx.assets.setRules(accountId, rules)
    },
    'assets.export': async (input) => {
      ctx.accounts.row(input.accountId)
      return files.export(input)
    },
    'assets.import': async (input) => {
      for (const id of input.accountIds) ctx.accounts.row(id)
      return files.import(input)
    },
  }
}
