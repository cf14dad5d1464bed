import {
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
