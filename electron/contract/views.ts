import { z } from 'zod'
import { accountId } from './accounts'
import { absolutePath } from './files'
import { keptName, recordRefusingPrototypeKeys } from './names'

/** A saved view's id (made by ScanDesk). */
const viewId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'is not a view id')

/** The address words a view keeps: filters by name, `search`, `sort`, `page`, `per_page`. */
const viewQuery = recordRefusingPrototypeKeys(
  z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'is not a list parameter'),
  z.string().max(500, 'is longer than 500 characters'),
).refine((q) => Object.keys(q).length <= 30, 'has more than 30 parameters')

/** The most views an account keeps (checked when the views are saved and when they are read). */
export const MAX_SAVED_VIEWS = 500

/** A view's name at most. */
export const MAX_VIEW_NAME = 80

/** What a saved view names: a resource's list with its filters, search, sort, page size, columns. */
export const savedViewFields = {
  name: keptName(MAX_VIEW_NAME, 'is empty'),
  /** The registry's key of the list (`vulnerabilities`). */
  resource: z.string().regex(/^[a-z][a-z_]{0,39}$/, 'is not a list'),
  query: viewQuery,
  /** The visible columns, in their order (absent: the list's own). */
  columns: z.array(z.string().max(60)).max(40).optional(),
  /** Opened when the view's group is opened without filters of its own. */
  isDefault: z.boolean().default(false),
}

export const savedView = z.strictObject({ id: viewId, ...savedViewFields })
export type SavedView = z.infer<typeof savedView>

/** The name form of "Save this list" and "Rename the view". */
export const viewNameInput = z.strictObject({ name: savedViewFields.name })

/**
 * What the open "Save this list" dialog holds (a draft of kind 'dialog', in main's memory only):
 * the name as typed so far, so a reload of the window finds the dialog as it was.
 */
export const viewNameDraft = z.strictObject({ name: z.string().max(200) })

/** What an account keeps (one sealed draft of kind 'saved-views'). */
export const savedViewsDocument = z.strictObject({
  views: z
    .array(savedView)
    .max(MAX_SAVED_VIEWS, `holds more than ${MAX_SAVED_VIEWS} views`)
    .refine((v) => new Set(v.map((x) => x.id)).size === v.length, 'names a view id twice'),
})
export type SavedViewsDocument = z.infer<typeof savedViewsDocument>

/** The file of an export: the views without their ids (an import gives them new ones). */
export const VIEWS_FILE_FORMAT = 'scandesk-saved-views'
export const savedViewsFile = z.strictObject({
  format: z.literal(VIEWS_FILE_FORMAT),
  version: z.literal(1),
  views: z
    .array(z.strictObject(savedViewFields))
    .max(MAX_SAVED_VIEWS, `holds more than ${MAX_SAVED_VIEWS} views`),
})
export type SavedViewsFile = z.infer<typeof savedViewsFile>

/** Inputs of the saved views file channels (checked in main before any work). */
export const viewsInputs = {
  /** Saves the views file where the user chooses (Electron: the save dialog). */
  'views.export': z.strictObject({
    accountId,
    content: savedViewsFile,
    path: absolutePath.optional(),
    replace: z.boolean().optional(),
  }),
  /** Reads a views file the user chooses (Electron: the open dialog); its text, at most 1 MiB. */
  'views.import': z.strictObject({
    accountId,
    path: absolutePath.optional(),
  }),
}

/** Outputs of the saved views file channels. */
export interface ViewsOutputs {
  /** Not saved: cancelled, or (browser mode, no path sent) the path ScanDesk suggests. */
  'views.export': { saved: true; path: string } | { saved: false; suggestedPath?: string }
  /** Not read: cancelled, or (browser mode, no path sent) the folder ScanDesk suggests. */
  'views.import': { read: true; text: string } | { read: false; suggestedFolder?: string }
}
