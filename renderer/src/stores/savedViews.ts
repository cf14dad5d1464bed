import { defineStore } from 'pinia'
import { computed, ref, toRaw } from 'vue'
import type { RouteLocationRaw } from 'vue-router'
import type { GroupId } from '@contract/catalog'
import { z } from 'zod'
import type { SavedView, SavedViewsDocument, SavedViewsFile } from '@contract/views'
import { request } from '@/bridge/bridge'
import { mergeImported, readStoredViews, readViewsFile, viewsToFile } from '@/data/savedViewsFile'
import { useDraft } from '@/data/useDraft'
import { RESOURCE_LISTS, resourceByKey, resourcesOf } from '@/resources'
import { useAppStore } from './app'

/**
 * What saving a view takes: the list and its address words (filters, search, sort, page size and
 * `columns`; its page is not kept).
 */
export interface NewView {
  name: string
  resource: string
  query: Record<string, string>
}

/** The address key naming the saved view a list was opened as. */
export const VIEW_KEY = 'view'
/** The address key of a list's visible columns in their order (`columns=title,severity`). */
export const COLUMNS_KEY = 'columns'
const PAGE_KEY = 'page'

const newId = () => `view-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`

/**
 * The window's account's saved views of its lists: a named address (filters, search, sort, page
 * size) plus visible columns, kept in main per account (sealed with the account's key, one
 * transaction a save, as a draft of kind 'saved-views'; without a keychain in main's memory until
 * ScanDesk closes, `keptInMemory`). A view opens at its first page. The
 * palette and the sidebar read `views`, `viewsOf(group)` and `routeOf(view)`.
 */
export const useSavedViewsStore = defineStore('savedViews', () => {
  const app = useAppStore()
  /** Views of the stored document that could not be read (an older version's), left on disk. */
  const unreadable = ref(0)
  // Read view by view (readStoredViews): one view a newer rule refuses never hides the others.
  const stored: z.ZodType<SavedViewsDocument> = z.unknown().transform((data) => {
    const read = readStoredViews(data, newId)
    unreadable.value = read.unreadable
    return { views: read.views }
  })
  const draft = useDraft('saved-views', stored)
  const views = computed<SavedView[]>(() => draft.value.value?.views ?? [])
  const loaded = computed(() => draft.loaded.value)
  const error = computed(() => draft.error.value)

  const groupOf = (view: SavedView) => resourceByKey(view.resource)?.group
  /** The views of a group's lists, in the order they were saved. */
  const viewsOf = (group: GroupId) => views.value.filter((v) => groupOf(v) === group)
  const byId = (id: string) => views.value.find((v) => v.id === id)
  /** The view a group's list opens as when it is opened with nothing chosen. */
  const defaultFor = (resource: string) =>
    views.value.find((v) => v.resource === resource && v.isDefault)

  /**
   * Stores the views; a refused save puts back what was kept (a view that was not kept is never
   * listed, only to be gone after a reload).
   */
  async function write(next: SavedView[]): Promise<void> {
    const before = draft.value.value
    await draft.save({ views: next })
    if (draft.error.value && toRaw(draft.value.value)?.views === next) draft.value.value = before
  }
  async function save(view: NewView): Promise<SavedView> {
    const query = { ...view.query }
    const columns = query[COLUMNS_KEY]?.split(',').filter(Boolean)
    for (const k of [PAGE_KEY, VIEW_KEY, COLUMNS_KEY, 'tab']) delete query[k]
    const saved: SavedView = {
      id: newId(),
      name: view.name.trim(),
      resource: view.resource,
      query,
      ...(columns?.length ? { columns } : {}),
      isDefault: false,
    }
    await write([...views.value, saved])
    return saved
  }
  async function rename(id: string, name: string): Promise<void> {
    await write(views.value.map((v) => (v.id === id ? { ...v, name: name.trim() } : v)))
  }
  async function remove(id: string): Promise<void> {
    await write(views.value.filter((v) => v.id !== id))
  }
  /** Makes the view its list's default (the list's other views stop being), or stops it being. */
  async function setDefault(id: string, on: boolean): Promise<void> {
    const view = byId(id)
    if (!view) return
    await write(
      views.value.map((v) =>
        v.id === id
          ? { ...v, isDefault: on }
          : v.resource === view.resource && on
            ? { ...v, isDefault: false }
            : v,
      ),
    )
  }
  /**
   * Adds the views of an import file (mergeImported: a view saved already is not added twice, a
   * taken name gets ` (2)`, past the cap nothing is imported); the outcome in words.
   */
  async function addFromFile(file: SavedViewsFile): Promise<{ done: string } | { error: string }> {
    const merged = mergeImported(views.value, file, newId)
    if (!merged.ok) return { error: merged.error }
    if (merged.added > 0) await write(merged.views)
    if (draft.error.value) return { error: draft.error.value.message }
    const { added, alreadySaved, renamed } = merged
    const parts = [`Imported ${added} ${added === 1 ? 'view' : 'views'}`]
    if (alreadySaved)
      parts.push(`${alreadySaved} ${alreadySaved === 1 ? 'was' : 'were'} saved already`)
    if (renamed.length)
      parts.push(
        `${renamed.length} renamed because the name was taken (${renamed
          .slice(0, 3)
          .map((n) => `“${n}”`)
          .join(', ')}${renamed.length > 3 ? ', …' : ''})`,
      )
    return { done: `${parts.join('; ')}.` }
  }
  /** Where a view opens: its group's page, its list's tab, its address words. */
  function routeOf(view: SavedView): RouteLocationRaw {
    const resource = resourceByKey(view.resource)
    if (!resource) return { name: 'dashboard' }
    const main = resourcesOf(resource.group)[0]
    return {
      name: resource.group,
      query: {
        ...(main && main.key !== resource.key ? { tab: resource.key } : {}),
        ...view.query,
        ...(view.columns?.length ? { [COLUMNS_KEY]: view.columns.join(',') } : {}),
        [VIEW_KEY]: view.id,
      },
    }
  }

  /**
   * Saves every view to a file (Electron: main's save dialog; browser mode: `path` typed, else
   * the suggested one comes back). The outcome in words, or the path to ask about.
   */
  async function exportFile(
    path?: string,
    replace?: boolean,
  ): Promise<{ done: string } | { askPath: string } | { error: string } | null> {
    if (!app.accountId) return null
    const result = await request('views.export', {
      accountId: app.accountId,
      content: viewsToFile(views.value),
      ...(path ? { path, replace } : {}),
    })
    if (!result.ok) return { error: result.error.message }
    if (result.data.saved)
      return { done: `Saved ${views.value.length} views to ${result.data.path}.` }
    return result.data.suggestedPath ? { askPath: result.data.suggestedPath } : null
  }
  /**
   * Adds the views of a file the user chooses, all or nothing (checked against the views schema
   * and the lists ScanDesk has); the outcome in words, or the folder to ask a path in.
   */
  async function importFile(
    path?: string,
  ): Promise<{ done: string } | { askPath: string } | { error: string } | null> {
    if (!app.accountId) return null
    const result = await request('views.import', {
      accountId: app.accountId,
      ...(path ? { path } : {}),
    })
    if (!result.ok) return { error: result.error.message }
    if (!result.data.read)
      return result.data.suggestedFolder ? { askPath: result.data.suggestedFolder } : null
    const read = readViewsFile(result.data.text, new Set(Object.keys(RESOURCE_LISTS)))
    if (!read.ok) return { error: read.error }
    return addFromFile(read.file)
  }

  return {
    views,
    unreadable,
    exportFile,
    importFile,
    loaded,
    error,
    saving: computed(() => draft.saving.value),
    /** The views are in main's memory until ScanDesk closes (the account has no key: no keychain). */
    keptInMemory: computed(() => draft.kept.value === 'memory'),
    viewsOf,
    byId,
    defaultFor,
    save,
    rename,
    remove,
    setDefault,
    addFromFile,
    routeOf,
  }
})
