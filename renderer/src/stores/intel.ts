import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { FeedAddressView } from '@contract/intel/feed-address'
import { FEED_LABEL, type Feed, type IntelPack } from '@contract/intel/packs'
import { request } from '@/bridge/bridge'
import { useAppStore } from './app'

/** What Update now of one feed said, in words. */
export type FeedOutcome = { done: string } | { error: string }

/** "CISA KEV 2026.11.30 (released 2026-11-30)": a pack named by its edition and date. */
function packName(p: IntelPack): string {
  const date = p.published.slice(0, 10)
  return `${FEED_LABEL[p.feed]} ${p.edition} (${p.feed === 'kev' ? 'released' : 'scores of'} ${date})`
}

/**
 * The exploit-intelligence packs main keeps (issue 37 §1): one set for the app, read when asked
 * and after each import or update; and each feed's address as Update now uses it for this
 * window's account.
 */
export const useIntelStore = defineStore('intel', () => {
  const app = useAppStore()
  const packs = ref<IntelPack[]>([])
  const loaded = ref(false)
  const error = ref<string | null>(null)
  const feeds = ref<FeedAddressView[]>([])

  async function load(): Promise<void> {
    const r = await request('intel.packs', {})
    if (r.ok) {
      packs.value = r.data
      error.value = null
    } else error.value = r.error.message
    loaded.value = true
  }

  /** Each feed's address for this window's account. */
  async function loadFeeds(): Promise<void> {
    if (!app.accountId) return
    const r = await request('intel.feeds', { accountId: app.accountId })
    if (r.ok) feeds.value = r.data
    else error.value = r.error.message
  }

  /** Saves a feed's address for the whole app (null: back to the public default). */
  async function setFeed(feed: Feed, address: string | null): Promise<string | null> {
    if (!app.accountId) return null
    const r = await request('intel.setFeed', { accountId: app.accountId, feed, address })
    if (!r.ok) return r.error.fieldErrors?.address?.[0] ?? r.error.message
    feeds.value = r.data
    return null
  }

  /** Update now: fetches the feed's address and says which pack is in use, or why not. */
  async function update(feed: Feed): Promise<FeedOutcome | null> {
    if (!app.accountId) return null
    const r = await request('intel.update', { accountId: app.accountId, feed })
    if (!r.ok) return { error: r.error.message }
    await load()
    const p = r.data.pack
    return {
      done:
        r.data.status === 'current'
          ? `${packName(p)} is already current.`
          : `${packName(p)} is now in use: ${p.entries.toLocaleString('en')} CVEs.`,
    }
  }

  /**
   * Imports a KEV or EPSS file the user chooses (Electron: the file dialog; browser mode: the
   * typed `path`); the outcome in words, or the folder to ask a path in.
   */
  async function importFile(
    path?: string,
  ): Promise<{ done: string } | { askPath: string } | { error: string } | null> {
    if (!app.accountId) return null
    const r = await request('intel.import', { accountId: app.accountId, ...(path ? { path } : {}) })
    if (!r.ok) return { error: r.error.message }
    if (!r.data.imported) return r.data.suggestedFolder ? { askPath: r.data.suggestedFolder } : null
    await load()
    const p = r.data.pack
    return {
      done: `Imported ${p.feed === 'kev' ? 'CISA KEV catalog' : 'FIRST EPSS model'} ${p.edition} (${p.entries} CVEs).`,
    }
  }

  return { packs, loaded, error, feeds, load, loadFeeds, setFeed, update, importFile }
})
