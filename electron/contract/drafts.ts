import { z } from 'zod'
import { accountId } from './accounts'
import type { Kept } from './kept'
import { prototypeKeyPath } from './names'
import { savedViewsDocument } from './views'

/**
 * What a draft is of: a scan wizard in progress, an SAQ being filled, the account's saved views of
 * its lists (one document, key ''), what an open form dialog holds (`dialog`, keyed by the
 * dialog: kept in main's memory only, whatever the keychain, so a reload of the window finds it
 * and a restart does not).
 */
export const draftKind = z.enum(['scan-wizard', 'saq', 'saved-views', 'dialog'])
export type DraftKind = z.infer<typeof draftKind>

/** Which draft of that kind ('' for the one draft of a kind, an SAQ's id for SAQs). */
export const draftKey = z
  .string()
  .max(64)
  .regex(/^[A-Za-z0-9_-]*$/, 'is not a draft key')
  .default('')

/** A draft's content at most (JSON text): far above a filled SAQ D, far below a denial of service. */
export const MAX_DRAFT_BYTES = 2 * 1024 * 1024

/** A draft's content: any JSON value the renderer's own schema understands, bounded in size. */
const draftData = z.preprocess(
  (value, ctx) => {
    // Refused by name, never dropped (z.json rebuilds objects without a `__proto__` key).
    const at = prototypeKeyPath(value)
    if (at)
      ctx.issues.push({
        code: 'custom',
        input: value,
        path: at,
        message: `holds the key ${String(at[at.length - 1])}, which ScanDesk does not take`,
      })
    return value
  },
  z.json().refine((value) => JSON.stringify(value).length <= MAX_DRAFT_BYTES, {
    message: 'is larger than 2 MiB',
  }),
)

const draftRef = { accountId, kind: draftKind, key: draftKey }

/** Inputs of the drafts channels (checked in main before any work). */
export const draftsInputs = {
  'drafts.get': z.strictObject(draftRef),
  // What is checked when a document is read is checked when it is written: a saved-views
  // document that its own schema would refuse on reading is never stored (no cap passed by an
  // import, no name a reader refuses).
  'drafts.save': z.strictObject({ ...draftRef, data: draftData }).superRefine((v, ctx) => {
    if (v.kind !== 'saved-views') return
    const checked = savedViewsDocument.safeParse(v.data)
    for (const issue of checked.error?.issues.slice(0, 3) ?? [])
      ctx.addIssue({ code: 'custom', path: ['data', ...issue.path], message: issue.message })
  }),
  'drafts.delete': z.strictObject(draftRef),
  'drafts.list': z.strictObject({ accountId, kind: draftKind }),
}

/** One stored draft. */
export interface DraftView {
  kind: DraftKind
  key: string
  data: unknown
  savedAt: string
  /** On disk (sealed), or in memory until ScanDesk closes (the account has no key: no keychain). */
  kept: Kept
}

/** Outputs of the drafts channels. */
export interface DraftsOutputs {
  'drafts.get': DraftView | null
  'drafts.save': { savedAt: string; kept: Kept }
  'drafts.delete': { deleted: boolean }
  'drafts.list': Omit<DraftView, 'data'>[]
}
