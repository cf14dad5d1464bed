import { defineStore } from 'pinia'
import { ref, watch } from 'vue'
import {
  EMPTY_CONTEXT,
  type AssetContext,
  type AssetContextDocument,
  type AssetPlace,
  type AssetRule,
} from '@contract/intel/asset-context'
import type { Result } from '@contract/errors'
import { request } from '@/bridge/bridge'
import { useAppStore } from './app'

/** A write's outcome: null when done, else the message and the field errors by dotted path. */
export type WriteProblem = { message: string; fieldErrors: Record<string, string[]> } | null

/**
 * This window's account's asset context (issue 37 §2): its ordered rules and explicit settings,
 * read when asked and again when the account changes; every write answers the whole context.
 */
export const useAssetContextStore = defineStore('assetContext', () => {
  const app = useAppStore()
  const doc = ref<AssetContextDocument>(structuredClone(EMPTY_CONTEXT))
  const loaded = ref(false)
  const error = ref<string | null>(null)
  let loadedFor: string | null = null

  async function load(force = false): Promise<void> {
    const accountId = app.accountId
    if (!accountId || (!force && loadedFor === accountId && loaded.value)) return
    const r = await request('assets.get', { accountId })
    if (accountId !== app.accountId) return
    if (r.ok) {
      doc.value = r.data
      error.value = null
    } else error.value = r.error.message
    loadedFor = accountId
    loaded.value = true
  }
  watch(
    () => app.accountId,
    () => {
      loaded.value = false
      doc.value = structuredClone(EMPTY_CONTEXT)
      void load()
    },
  )

  function answered(r: Result<AssetContextDocument>): WriteProblem {
    if (!r.ok) return { message: r.error.message, fieldErrors: r.error.fieldErrors ?? {} }
    doc.value = r.data
    return null
  }

  /** Sets (or clears, with null) a target's or host's context. */
  async function set(place: AssetPlace, context: AssetContext | null): Promise<WriteProblem> {
    if (!app.accountId) return null
    return answered(await request('assets.set', { accountId: app.accountId, place, context }))
  }

  /** Replaces the rules (in this order). */
  async function setRules(rules: AssetRule[]): Promise<WriteProblem> {
    if (!app.accountId) return null
    return answered(await request('assets.setRules', { accountId: app.accountId, rules }))
  }

  /** Export…: the saved path, the path to ask about (browser mode), or the error. */
  async function exportFile(
    path?: string,
  ): Promise<{ done: string } | { askPath: string } | { error: string } | null> {
    if (!app.accountId) return null
    const r = await request('assets.export', {
      accountId: app.accountId,
      ...(path ? { path } : {}),
    })
    if (!r.ok) return { error: r.error.message }
    if (r.data.saved) return { done: `Saved the asset context to ${r.data.path}.` }
    return r.data.suggestedPath ? { askPath: r.data.suggestedPath } : null
  }

  /** Import…: applies a file to `accountIds`; the outcome in words, or the folder to ask a path in. */
  async function importFile(
    accountIds: string[],
    path?: string,
  ): Promise<{ done: string } | { askPath: string } | { error: string } | null> {
    const r = await request('assets.import', { accountIds, ...(path ? { path } : {}) })
    if (!r.ok) return { error: r.error.message }
    if (!r.data.imported) return r.data.suggestedFolder ? { askPath: r.data.suggestedFolder } : null
    if (app.accountId && accountIds.includes(app.accountId)) await load(true)
    const d = r.data
    const n = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : 's'}`
    return {
      done: `Imported ${n(d.rules, 'rule')}, ${n(d.targets, 'target setting')} and ${n(d.hosts, 'host setting')} to ${n(d.accounts, 'account')}.`,
    }
  }

  return { doc, loaded, error, load, set, setRules, exportFile, importFile }
})
