import { z } from 'zod'
import { accountId } from './accounts'
import { exceptionKind } from './catalog/exceptions'
import type { AppError } from './errors'
import type { Kept } from './kept'
import { idParam } from './schemas/common'

/** The most writes one bulk run holds (the "all matching this filter" cap the user sees). */
export const BULK_MAX_ITEMS = 5000

/** The operations a bulk run repeats, one write per item. */
export const BULK_ACTIONS = [
  'exceptions.create',
  'exceptions.update',
  'exceptions.activate',
  'exceptions.reset',
] as const

/** One operation a bulk run repeats. */
export type BulkAction = (typeof BULK_ACTIONS)[number]

/** What each action is called where a run is listed. */
export const BULK_ACTION_LABELS: Record<BulkAction, string> = {
  'exceptions.create': 'Create exceptions',
  'exceptions.update': 'Renew exceptions',
  'exceptions.activate': 'Activate exceptions',
  'exceptions.reset': 'Reset exceptions',
}

/** An instant with `Z` or an offset that lies in the future (an expiry after today). */
const futureInstant = z.iso
  .datetime({ offset: true })
  .refine((v) => Date.parse(v) > Date.now(), 'must be after today')

/**
 * The host a run's record is on, as the list showed it (a finding's or an exception's): its id
 * (its page, and its scanning target, are found from it) and its words (the address, with the
 * port and protocol of a finding).
 */
export const bulkHost = z.strictObject({ id: idParam, name: z.string().trim().min(1).max(300) })

/** The host of a run's record (BulkItemView.host). */
export type BulkHost = z.output<typeof bulkHost>

/**
 * One record a run writes to: its id, a label to show in the result (a finding's title) and its
 * host, so that five writes of one title on five hosts read apart.
 */
const bulkTarget = z.strictObject({
  id: idParam,
  label: z.string().max(300).optional(),
  host: bulkHost.optional(),
})

const targets = z
  .array(bulkTarget)
  .min(1, 'needs at least one record')
  .max(BULK_MAX_ITEMS, `may hold at most ${BULK_MAX_ITEMS} records`)
  .refine((list) => new Set(list.map((t) => t.id)).size === list.length, 'names a record twice')

/** Input of bulk.start: the action, what every write shares, and the records (one write each). */
export const bulkStartInput = z.discriminatedUnion('action', [
  z.strictObject({
    accountId,
    action: z.literal('exceptions.create'),
    /** Shared by every exception: the findings are the items (vulnerability ids). */
    body: z.strictObject({
      kind: exceptionKind,
      reason: z.string().trim().min(1, 'is required').max(2000),
      expires_at: futureInstant,
    }),
    items: targets,
  }),
  z.strictObject({
    accountId,
    action: z.literal('exceptions.update'),
    /** A renewal: the new expiry of every exception (the items are exception ids). */
    body: z.strictObject({ expires_at: futureInstant }),
    items: targets,
  }),
  z.strictObject({ accountId, action: z.literal('exceptions.activate'), items: targets }),
  z.strictObject({ accountId, action: z.literal('exceptions.reset'), items: targets }),
])

/** bulk.start as main reads it. */
export type BulkStartInput = z.output<typeof bulkStartInput>

/** What the writes of a run share (the action's body without the record). */
export type BulkBody = { kind?: string; reason?: string; expires_at?: string }

/**
 * One write of a run:
 * - `queued`: waiting in the outbox (now, or until the service can be reached);
 * - `sending`: being checked and sent;
 * - `done`: the service made the change (`resultId` names the record made or changed);
 * - `skipped`: nothing to send, `message` says why (an open exception already there);
 * - `failed`: the service refused, `message` holds its words (bulk.retry sends it again);
 * - `cancelled`: the user stopped the run before it was sent.
 */
export type BulkItemState = 'queued' | 'sending' | 'done' | 'skipped' | 'failed' | 'cancelled'

/** One write of a run as the result view shows it. */
export interface BulkItemView {
  /** The write's own id (kept with it in the outbox; checked for before any re-send). */
  writeId: string
  target: string
  label: string | null
  /** The host the record is on, as the list showed it (null: not said when the run started). */
  host: BulkHost | null
  state: BulkItemState
  message: string | null
  /** The service's error code of a failed write. */
  code: AppError['code'] | null
  resultId: string | null
  /** How many times it was handed to the service (a second one is preceded by a check). */
  attempts: number
}

/** How many writes of a run are in each state. */
export type BulkCounts = Record<BulkItemState, number> & { total: number }

/** A bulk run without its items (bulk.list, the bulk.changed event). */
export interface BulkRunView {
  id: string
  accountId: string
  action: BulkAction
  summary: string
  body: BulkBody
  counts: BulkCounts
  /** `running` while writes are queued or being sent; `finished` when each has its result. */
  state: 'running' | 'finished'
  createdAt: string
  updatedAt: string
  /** On disk (sealed), or in memory until ScanDesk closes (the account has no key: no keychain). */
  kept: Kept
}

/**
 * A run with its writes (bulk.get): every one, or one page of those in a state (a result page
 * reads a page at a time: 5,000 writes are not unsealed and sent on every refresh).
 */
export interface BulkRunDetails extends BulkRunView {
  items: BulkItemView[]
  /** How many writes the state asked matches (all of them without one). */
  matching: number
}

/** The largest page of writes bulk.get gives. */
export const BULK_PAGE_MAX = 500

/** A run's id (made in main). */
const runId = z.string().uuid('is not a bulk run id')

/** Inputs of the bulk channels (checked in main before any work). */
export const bulkInputs = {
  /** Queues one write per record (sent at once when the service answers) and returns the run. */
  'bulk.start': bulkStartInput,
  'bulk.list': z.strictObject({ accountId }),
  'bulk.get': z.strictObject({
    runId,
    /** Without a page, every write (in their order). */
    page: z.number().int().min(1).max(1_000_000).optional(),
    perPage: z.number().int().min(1).max(BULK_PAGE_MAX).optional(),
    state: z.enum(['queued', 'sending', 'done', 'skipped', 'failed', 'cancelled']).optional(),
  }),
  /** Stops the writes not yet sent (one being sent finishes and keeps its result). */
  'bulk.cancel': z.strictObject({ runId }),
  /** Queues the failed writes again (each checked for before it is sent). */
  'bulk.retry': z.strictObject({ runId }),
  /** Forgets a finished run. */
  'bulk.dismiss': z.strictObject({ runId }),
}

/** Outputs of the bulk channels. */
export interface BulkOutputs {
  'bulk.start': BulkRunView
  'bulk.list': BulkRunView[]
  'bulk.get': BulkRunDetails
  'bulk.cancel': BulkRunView
  'bulk.retry': BulkRunView
  'bulk.dismiss': { dismissed: boolean }
}

/** Payloads of the bulk events: a run's counts changed (at most a few times a second). */
export interface BulkEvents {
  'bulk.changed': BulkRunView
}
