import { withoutHidden } from '@contract/names'
import {
  MAX_SAVED_VIEWS,
  MAX_VIEW_NAME,
  savedView,
  savedViewsFile,
  VIEWS_FILE_FORMAT,
  type SavedView,
  type SavedViewsFile,
} from '@contract/views'
import { MAX_JSON_DEPTH, textNestsDeeper } from '@contract/json-depth'

/** Size of a views file at most: far above 500 views, far below a denial of service. */
export const MAX_VIEWS_FILE_BYTES = 1024 * 1024

/** The views as an export file holds them (no ids: an import gives them new ones). */
export function viewsToFile(views: readonly SavedView[]): SavedViewsFile {
  return {
    format: VIEWS_FILE_FORMAT,
    version: 1,
    views: views.map(({ name, resource, query, columns, isDefault }) => ({
      name,
      resource,
      query: { ...query },
      ...(columns ? { columns: [...columns] } : {}),
      isDefault,
    })),
  }
}

/** What reading a views file gave: every view, or why none was taken. */
export type ViewsFileRead = { ok: true; file: SavedViewsFile } | { ok: false; error: string }

/**
 * Reads a views file's text, all or nothing: it must be JSON of ScanDesk's views format (checked
 * against the schema), and every view must name a list this ScanDesk has (`lists`). The error
 * names the first thing wrong, where it is ("View 3, name: is empty").
 */
export function readViewsFile(text: string, lists: ReadonlySet<string>): ViewsFileRead {
  if (text.length > MAX_VIEWS_FILE_BYTES)
    return { ok: false, error: 'This file is larger than 1 MiB: it is not a views file.' }
  if (textNestsDeeper(text))
    return {
      ok: false,
      error: `This file nests more than ${MAX_JSON_DEPTH} levels deep: it is not a ScanDesk views file.`,
    }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { ok: false, error: 'This file is not JSON: it is not a ScanDesk views file.' }
  }
  if (
    !json ||
    typeof json !== 'object' ||
    (json as { format?: unknown }).format !== VIEWS_FILE_FORMAT
  )
    return { ok: false, error: 'This file is not a ScanDesk views file (its format is not named).' }
  const parsed = savedViewsFile.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const [first, index, ...rest] = issue.path
    const where =
      first === 'views' && typeof index === 'number'
        ? `View ${index + 1}${rest.length ? `, ${rest.join('.')}` : ''}`
        : issue.path.join('.') || 'The file'
    return { ok: false, error: `Nothing was imported. ${where}: ${issue.message}.` }
  }
  const unknown = parsed.data.views.findIndex((v) => !lists.has(v.resource))
  if (unknown >= 0)
    return {
      ok: false,
      error: `Nothing was imported. View ${unknown + 1} is of a list ScanDesk does not have (“${parsed.data.views[unknown].resource}”).`,
    }
  return { ok: true, file: parsed.data }
}

/** What an account's stored views read as: every view that could be read, and how many not. */
export interface StoredViews {
  views: SavedView[]
  /** Views of the stored document that could not be read even after repair (kept on disk). */
  unreadable: number
}

/**
 * Reads the stored views document view by view, so one view a newer rule refuses never costs
 * the others: a name kept before the name rule loses its hidden characters (and is cut to the
 * length), a view that still does not fit is left out and counted, a repeated id gets a new one.
 * Views beyond the cap are kept (an older import stored them): saving refuses until some go.
 */
export function readStoredViews(data: unknown, newId: () => string): StoredViews {
  const raw = (data as { views?: unknown } | null)?.views
  if (!Array.isArray(raw)) return { views: [], unreadable: 0 }
  const views: SavedView[] = []
  const ids = new Set<string>()
  let unreadable = 0
  for (const item of raw) {
    const named =
      item && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string'
        ? {
            ...item,
            name:
              withoutHidden((item as { name: string }).name).slice(0, MAX_VIEW_NAME) ||
              'Unnamed view',
          }
        : item
    const parsed = savedView.safeParse(named)
    if (!parsed.success) {
      unreadable++
      continue
    }
    const view = ids.has(parsed.data.id) ? { ...parsed.data, id: newId() } : parsed.data
    ids.add(view.id)
    views.push(view)
  }
  return { views, unreadable }
}

/** The views after an import, and what it did; or why nothing was imported. */
export type ImportMerge =
  | { ok: true; views: SavedView[]; added: number; alreadySaved: number; renamed: string[] }
  | { ok: false; error: string }

/** True when a saved name is `name` or a copy of it made by an earlier import (`name (2)`). */
function sameName(name: string, saved: string): boolean {
  if (saved === name) return true
  const copy = / \((\d+)\)$/.exec(saved)
  return copy !== null && name.startsWith(saved.slice(0, copy.index))
}

const sameView = (a: SavedViewsFile['views'][number], b: SavedView) =>
  sameName(a.name, b.name) &&
  a.resource === b.resource &&
  JSON.stringify(Object.entries(a.query).sort()) ===
    JSON.stringify(Object.entries(b.query).sort()) &&
  JSON.stringify(a.columns ?? []) === JSON.stringify(b.columns ?? [])

/** `name (2)`, `name (3)`, … within the name's length: the first not in `taken`. */
function freeName(name: string, taken: ReadonlySet<string>): string {
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`
    const candidate = `${name.slice(0, MAX_VIEW_NAME - suffix.length).trimEnd()}${suffix}`
    if (!taken.has(candidate)) return candidate
  }
}

/**
 * Adds a file's views to the saved ones, all or nothing (decided once, docs/decisions.md):
 * a view already saved (the same list, filters and columns, under its name or a copy's
 * `name (2)`) is not added again; a new view
 * whose name is taken keeps both, the new one named `name (2)`; a default stays one only if its
 * list has none. An import that would pass MAX_SAVED_VIEWS is refused whole, saying how many to
 * remove. Nothing saved before is changed or lost.
 */
export function mergeImported(
  saved: readonly SavedView[],
  file: SavedViewsFile,
  newId: () => string,
): ImportMerge {
  const next = [...saved]
  const names = new Set(saved.map((v) => v.name))
  let alreadySaved = 0
  const renamed: string[] = []
  for (const v of file.views) {
    if (next.some((n) => sameView(v, n))) {
      alreadySaved++
      continue
    }
    const name = names.has(v.name) ? freeName(v.name, names) : v.name
    if (name !== v.name) renamed.push(name)
    names.add(name)
    const taken = next.some((n) => n.resource === v.resource && n.isDefault)
    next.push({ ...v, name, id: newId(), isDefault: v.isDefault && !taken })
  }
  const added = next.length - saved.length
  if (next.length > MAX_SAVED_VIEWS)
    return {
      ok: false,
      error: `Nothing was imported: this file would add ${added} views to the ${saved.length} saved, and ScanDesk keeps at most ${MAX_SAVED_VIEWS}. Remove ${next.length - MAX_SAVED_VIEWS} views first, or import a smaller file.`,
    }
  return { ok: true, views: next, added, alreadySaved, renamed }
}
