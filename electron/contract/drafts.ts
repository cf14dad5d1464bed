import { z } from 'zod'
import { accountId } from './accounts'
import type { Kept } from './kept'

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
const draftData = z.json().refine((value) => JSON.stringify(value).length <= MAX_DRAFT_BYTES, {
  message: 'is larger than 2 MiB',
})

const draftRef = { accountId, kind: draftKind, key: draftKey }

/** Inputs of the drafts channels (checked in main before any work). */
export const draftsInputs = {
  'drafts.get': z.strictObject(draftRef),
  'drafts.save': z.strictObject({ ...draftRef, data: draftData }),
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
