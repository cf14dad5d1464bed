// Where "Update now" fetches each exploit-intelligence feed (issue 37 §1): the public addresses by
// default, an internal mirror when a site sets one, the sandbox's own feeds for the demo service
// (docs/decisions.md "Fix first: feed updates").
import { z } from 'zod'
import type { Feed } from './packs'

/** The feeds' public addresses: the defaults of the settings. */
export const DEFAULT_FEED_ADDRESS: Record<Feed, string> = {
  kev: 'https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json',
  epss: 'https://epss.empiricalsecurity.com/epss_scores-current.csv.gz',
}

/** Where the sandbox (the demo service) serves each feed, under its own origin. */
export const SANDBOX_FEED_PATH: Record<Feed, string> = {
  kev: '/feeds/kev.json',
  epss: '/feeds/epss.csv.gz',
}

/** The longest feed address accepted. */
export const MAX_FEED_ADDRESS_LENGTH = 2048

/** Host names of this computer, the only ones a feed may be read from over plain http. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** Whether `url` names this computer (127.0.0.1, localhost or ::1). */
export function isLoopback(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname.toLowerCase())
}

/**
 * Why `text` cannot be a feed's address, or null when it can: an absolute https:// address without
 * credentials or fragment; http:// only on this computer (a mirror run locally, the sandbox).
 */
export function feedAddressProblem(text: string): string | null {
  if (text.length > MAX_FEED_ADDRESS_LENGTH)
    return `A feed address is at most ${MAX_FEED_ADDRESS_LENGTH} characters.`
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'A feed address is a full address such as https://mirror.example.org/kev.json.'
  }
  if (url.protocol === 'http:' && !isLoopback(url))
    return 'A feed address must start with https:// (plain http:// only on this computer, 127.0.0.1 or localhost), so nobody on the way can change the data that ranks findings.'
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'A feed address must start with https://.'
  if (url.username || url.password)
    return 'A feed address carries no user name or password: the feeds are public.'
  if (url.hash) return 'A feed address has no #fragment.'
  return null
}

/** A feed's address as the settings take it (trimmed, then judged by `feedAddressProblem`). */
export const feedAddress = z
  .string()
  .trim()
  .min(1, 'Enter an address, or reset to the default.')
  .superRefine((text, ctx) => {
    const problem = feedAddressProblem(text)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

/** The address "Update now" uses for one feed with one account, and where it comes from. */
export interface FeedAddressView {
  feed: Feed
  /** What Update now fetches for this account. */
  address: string
  /** The app-wide setting, or null for the public default. */
  saved: string | null
  defaultAddress: string
  /** True for the demo service's accounts: their feeds are the sandbox's, whatever is saved. */
  demo: boolean
}
