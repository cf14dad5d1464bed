// Exploit-intelligence packs as ScanDesk keeps them (issue 37 §1): one KEV catalog or EPSS scores
// file, parsed, with where it came from. Packs are public data and not an account's: one set for
// the whole app. The current pack of each feed is used for ranking; the one before it is kept to
// tell what became dangerous since.
import { z } from 'zod'
import { accountId } from '../accounts'
import { absolutePath } from '../files'
import { feedAddress, type FeedAddressView } from './feed-address'

/** The feeds ScanDesk reads. */
export const FEEDS = ['kev', 'epss'] as const
export type Feed = (typeof FEEDS)[number]

/** How each feed reads. */
export const FEED_LABEL: Record<Feed, string> = { kev: 'CISA KEV', epss: 'FIRST EPSS' }

/**
 * Days after its publication a pack is stale: CISA adds to KEV several times a week, FIRST
 * publishes EPSS scores daily (docs/decisions.md "Fix first: packs").
 */
export const STALE_AFTER_DAYS: Record<Feed, number> = { kev: 14, epss: 7 }

/** The largest pack file read (an EPSS file is about 10 MB; gzipped about 2 MB). */
export const MAX_PACK_FILE_BYTES = 64 * 1024 * 1024

/** A pack's provenance, as the screens show it wherever a score is shown. */
export interface IntelPack {
  id: number
  feed: Feed
  /** KEV: catalogVersion; EPSS: model_version. */
  edition: string
  /** KEV: dateReleased; EPSS: score_date. */
  published: string
  /** SHA-256 of the file as read (before gzip was undone). */
  sha256: string
  bytes: number
  /** KEV: vulnerabilities listed; EPSS: CVEs scored. */
  entries: number
  importedAt: string
  /** Where it came from: the file's path or the address it was fetched from. */
  source: string
  /** The pack used for ranking (the newest of its feed); false: the one kept before it. */
  current: boolean
}

/** Whether `pack` is older than its feed's threshold at `now` (ms). */
export function isStale(pack: Pick<IntelPack, 'feed' | 'published'>, now: number): boolean {
  const published = Date.parse(pack.published)
  return Number.isNaN(published) || now - published > STALE_AFTER_DAYS[pack.feed] * 86_400_000
}

/** Inputs of the intelligence channels. */
export const intelInputs = {
  /** Every pack kept, current ones first. */
  'intel.packs': z.strictObject({}),
  /**
   * Imports a KEV or EPSS file (the feed told by its content; gzip undone). The path is judged
   * like every typed path: against `accountId`'s download folders. Without a path, Electron opens
   * the file dialog; browser mode answers the folder it suggests.
   */
  'intel.import': z.strictObject({ accountId, path: absolutePath.optional() }),
  /** Each feed's address as Update now uses it for `accountId` (the demo's: the sandbox's). */
  'intel.feeds': z.strictObject({ accountId }),
  /** Saves a feed's address for the whole app; null goes back to the public default. */
  'intel.setFeed': z.strictObject({
    accountId,
    feed: z.enum(FEEDS),
    address: feedAddress.nullable(),
  }),
  /**
   * Update now: fetches the feed's address without any credential, through `accountId`'s
   * connection settings (its CA bundle), and stores the pack it holds.
   */
  'intel.update': z.strictObject({ accountId, feed: z.enum(FEEDS) }),
}

/** What Update now did: a new current pack, or the same file as the current one. */
export type FeedUpdate = { status: 'updated' | 'current'; pack: IntelPack }

/** Outputs of the intelligence channels. */
export interface IntelOutputs {
  'intel.packs': IntelPack[]
  'intel.import':
    { imported: true; pack: IntelPack } | { imported: false; suggestedFolder?: string }
  'intel.feeds': FeedAddressView[]
  'intel.setFeed': FeedAddressView[]
  'intel.update': FeedUpdate
}
