import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { IntelPack } from '@contract/intel/packs'
import { request } from '@/bridge/bridge'
import { useAppStore } from './app'

/**
 * The exploit-intelligence packs main keeps (issue 37 §1): one set for the app, read when asked
 * and after each import.
 */
export const useIntelStore = defineStore('intel', () => {
  const app = useAppStore()
  const packs = ref<IntelPack[]>([])
  const loaded = ref(false)
  const error = ref<string | null>(null)

  async function load(): Promise<void> {
    const r = await request('intel.packs', {})
    if (r.ok) {
      packs.value = r.data
      error.value = null
    } else error.value = r.error.message
    loaded.value = true
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

  return { packs, loaded, error, load, importFile }
})
