import { z } from 'zod'
import { accountId } from './accounts'

/**
 * What a draft is of: a scan wizard in progress, an SAQ being filled, the account's saved views of
 * its lists (one document, key '').
 */
export const draftKind = z.enum(['scan-wizard', 'saq', 'saved-views'])
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
}

/** Outputs of the drafts channels. */
export interface DraftsOutputs {
  'drafts.get': DraftView | null
  'drafts.save': { savedAt: string }
  'drafts.delete': { deleted: boolean }
  'drafts.list': Omit<DraftView, 'data'>[]
}
