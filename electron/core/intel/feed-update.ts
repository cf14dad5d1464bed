// "Update now" (issue 37 §1): each feed's address (app-wide settings; the demo service's accounts
// read the sandbox's own feeds), fetched as public data (http/public-download.ts) and stored like
// an imported file: parsed whole, SHA-256 kept, one transaction, the same file said to be current.
import { AppFailure } from '@contract/errors'
import {
  DEFAULT_FEED_ADDRESS,
  SANDBOX_FEED_PATH,
  feedAddressProblem,
  type FeedAddressView,
} from '@contract/intel/feed-address'
import {
  FEED_LABEL,
  FEEDS,
  MAX_PACK_FILE_BYTES,
  type Feed,
  type FeedUpdate,
} from '@contract/intel/packs'
import { publicDownload, type PublicDownloadOptions } from '../http/public-download'
import type { SettingsRepo } from '../store/settings-repo'
import { storePack } from './pack-import'
import type { PacksRepo } from './packs-repo'

const settingKey = (feed: Feed) => `intel_feed_address_${feed}`

/** The saved address of `feed` (null: the public default; an unreadable value counts as none). */
export function savedFeedAddress(settings: SettingsRepo, feed: Feed): string | null {
  const value = settings.get<unknown>(settingKey(feed), null)
  return typeof value === 'string' && feedAddressProblem(value) === null ? value : null
}

/** Saves the address of `feed` for the whole app (already validated); null removes it. */
export function saveFeedAddress(settings: SettingsRepo, feed: Feed, address: string | null): void {
  settings.set(settingKey(feed), address ?? undefined)
}

/**
 * Each feed's address for an account: the sandbox's own feeds under `demoOrigin` (an account of
 * the demo service, which must never reach the internet), else the saved one or the default.
 */
export function feedAddresses(
  settings: SettingsRepo,
  demoOrigin: string | null,
): FeedAddressView[] {
  return FEEDS.map((feed) => {
    const saved = savedFeedAddress(settings, feed)
    const defaultAddress = DEFAULT_FEED_ADDRESS[feed]
    return {
      feed,
      address: demoOrigin ? `${demoOrigin}${SANDBOX_FEED_PATH[feed]}` : (saved ?? defaultAddress),
      saved,
      defaultAddress,
      demo: demoOrigin !== null,
    }
  })
}

/** What an update needs besides the feed and its address. */
export interface FeedUpdateDeps {
  packs: PacksRepo
  now(): Date
  /** The download's limits and connection (CA bundle, proxy, offline check, User-Agent). */
  download: Omit<PublicDownloadOptions, 'url' | 'maxBytes' | 'judge'>
}

/**
 * Fetches `address` and stores the pack it holds as `feed`'s current one, or says the current
 * pack is that very file. Every refusal names the feed and why, and leaves the packs unchanged.
 */
export async function updateFeed(
  deps: FeedUpdateDeps,
  feed: Feed,
  address: string,
): Promise<FeedUpdate> {
  const label = FEED_LABEL[feed]
  try {
    const got = await publicDownload({
      ...deps.download,
      url: address,
      maxBytes: MAX_PACK_FILE_BYTES,
      judge: (url) => feedAddressProblem(url.href),
    })
    const { pack, already } = await storePack(
      deps.packs,
      got.bytes,
      { source: address, importedAt: deps.now().toISOString() },
      feed,
    )
    return { status: already ? 'current' : 'updated', pack }
  } catch (err) {
    if (!(err instanceof AppFailure)) throw err
    const message = err.error.message.replace(/\s*Nothing was imported\.$/, '')
    throw new AppFailure({
      ...err.error,
      message: `${label} was not updated from ${address}: ${message} The packs are unchanged.`,
    })
  }
}
