import type { FeedAddressView } from '@contract/intel/feed-address'
import { feedAddresses, saveFeedAddress, updateFeed } from '../intel/feed-update'
import { importPackFile } from '../intel/pack-import'
import { evaluatePriorities } from '../intel/priority-eval'
import type { AccountRow } from '../store/accounts-repo'
import type { HandlerContext } from './context'
import type { HandlerTable } from './dispatch'

type IntelChannels =
  | 'intel.packs'
  | 'intel.import'
  | 'intel.feeds'
  | 'intel.setFeed'
  | 'intel.update'
  | 'intel.priority'

/**
 * intel.*: the exploit-intelligence packs (issue 37 §1), one set for the app: listed, imported
 * from a file, or updated from each feed's address.
 */
export function intelHandlers(ctx: HandlerContext): Pick<HandlerTable, IntelChannels> {
  /** The account's row, the demo service started first for its accounts (its port moves). */
  async function accountRow(accountId: string): Promise<AccountRow> {
    const row = ctx.accounts.row(accountId)
    if (!ctx.demo.needsStart(row)) return row
    await ctx.demo.ensureFor(row)
    return ctx.accounts.row(accountId)
  }
  /** The sandbox's origin for an account of the demo service (its feeds are the demo's), else null. */
  function demoOrigin(row: AccountRow): string | null {
    const demo = row.isDemo ? row : ctx.accounts.findDemo()
    return demo && demo.baseUrl === row.baseUrl ? new URL(row.baseUrl).origin : null
  }
  const addresses = (row: AccountRow): FeedAddressView[] =>
    feedAddresses(ctx.settings, demoOrigin(row))

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
    'intel.feeds': async ({ accountId }) => addresses(await accountRow(accountId)),
    'intel.setFeed': async ({ accountId, feed, address }) => {
      const row = await accountRow(accountId)
      saveFeedAddress(ctx.settings, feed, address)
      return addresses(row)
    },
    'intel.update': async ({ accountId, feed }) => {
      const row = await accountRow(accountId)
      const view = addresses(row).find((v) => v.feed === feed)!
      return updateFeed(
        {
          packs: ctx.packs,
          now: () => new Date(),
          download: {
            // The account's connection settings; no credential of any kind is sent.
            ...(row.caBundle ? { caBundle: row.caBundle } : {}),
            userAgent: `ScanDesk/${ctx.version}`,
            networkBlocked: () => ctx.connectivity.blockedReason(),
          },
        },
        feed,
        view.address,
      )
    },
    'intel.priority': async ({ accountId, findings }) => {
      ctx.accounts.row(accountId)
      const context = await ctx.assets.get(accountId)
      return evaluatePriorities(ctx.packs, context, findings, new Date())
    },
  }
}
