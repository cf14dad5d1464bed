import { z } from 'zod'
import { accountId, addAccountInput, type AccountView } from './accounts'
import { bulkInputs, type BulkEvents, type BulkOutputs } from './bulk'
import { NOTIFICATION_KINDS } from './catalog/notifications'
import type { ChannelName, EventName } from './channel-names'
import { changesInputs, type ChangesEvents, type ChangesOutputs } from './changes'
import { sinceInputs, type SinceOutputs } from './since'
import { csvInputs, type CsvEvents, type CsvOutputs } from './csv'
import { trendsInputs, type TrendsOutputs } from './trends'
import { draftsInputs, type DraftsOutputs } from './drafts'
import { viewsInputs, type ViewsOutputs } from './views'
import { intelInputs, type IntelOutputs } from './intel/packs'
import { priorityInputs, type PriorityOutputs } from './intel/priority-channel'
import { assetInputs, type AssetOutputs } from './intel/asset-context'
import { DUE_NOTIFICATION_KINDS, remediationInputs, type RemediationOutputs } from './remediation'
import { filesInputs, type FilesEvents, type FilesOutputs } from './files'
import { pciEvidenceInputs, type PciEvidenceOutputs } from './pci-evidence'
import { CACHE_MAX_BYTES, offlineInputs, type OfflineEvents, type OfflineOutputs } from './offline'
import {
  sessionsInputs,
  signInInput,
  type SessionsEvents,
  type SessionsOutputs,
  type SignInOutcome,
} from './sessions'

/** A request id chosen by the renderer so the call can be cancelled. */
export const requestId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'is not a request id')

/** Input of api.call: which account, which catalog operation, and its path/query/body. */
export const apiCallInput = z.strictObject({
  accountId,
  op: z.string().regex(/^[a-z_]+\.[a-z_]+$/, 'is not an operation id'),
  requestId: requestId.optional(),
  input: z
    .strictObject({
      path: z.unknown().optional(),
      query: z.unknown().optional(),
      body: z.unknown().optional(),
    })
    .optional(),
})

/** Answer of api.call. `data` is the checked service answer. */
export interface ApiCallOutput {
  data: unknown
  /** When the answer left the service (for an offline copy: when it was stored). */
  fetchedAt: string
  /** True when the answer is the offline copy (the service was not asked or did not answer). */
  fromCache: boolean
  /** Set when the write was kept in the outbox to be sent when the service is back (data null). */
  queued?: { id: string }
  /**
   * Set when part of the answer did not have the expected shape and was read tolerantly (display
   * fields shown as text, rows marked): sentences the view shows once.
   */
  warnings?: string[]
}

/** What the app reports about itself. */
export interface AppInfo {
  mode: 'electron' | 'browser'
  version: string
  keychain: KeychainStatus
}

/** Whether secrets can be kept in the OS keychain, with a message for the user when not. */
export interface KeychainStatus {
  available: boolean
  message: string | null
  /** When unavailable: what the user can do (which keychain to install, start or unlock). */
  advice?: string
}

/** Settings the renderer may read and change. */
export interface Settings {
  theme: 'light' | 'dark' | 'system'
  /** What happens to a downloaded file whose hash does not match: moved aside or deleted. */
  mismatchAction: 'quarantine' | 'delete'
  /** Native notifications when a long generation or download finishes. */
  notifyOnFinish: boolean
  /** The largest file a download may bring, declared or not (1 MiB..64 GiB; default 4 GiB). */
  maxDownloadBytes: number
  /** The largest offline copy of one account's answers (16 MiB..16 GiB; default 512 MiB). */
  cacheMaxBytes: number
  /**
   * Kinds of the service's notifications, and ScanDesk's own due-date kinds, that raise no desktop
   * notification (default none).
   */
  mutedNotificationKinds: DesktopNotificationKind[]
}

/** The bounds and default of `Settings.maxDownloadBytes`. */
export const MAX_DOWNLOAD_BYTES = {
  min: 1024 ** 2,
  max: 64 * 1024 ** 3,
  default: 4 * 1024 ** 3,
} as const

/** Every kind of desktop notification: the service's kinds, then ScanDesk's due-date kinds. */
export const DESKTOP_NOTIFICATION_KINDS = [
  ...NOTIFICATION_KINDS,
  ...DUE_NOTIFICATION_KINDS,
] as const
export type DesktopNotificationKind = (typeof DESKTOP_NOTIFICATION_KINDS)[number]

/** Settings payload (partial updates). */
export const settingsInput = z.strictObject({
  theme: z.enum(['light', 'dark', 'system']).optional(),
  mismatchAction: z.enum(['quarantine', 'delete']).optional(),
  notifyOnFinish: z.boolean().optional(),
  maxDownloadBytes: z
    .number()
    .int()
    .min(MAX_DOWNLOAD_BYTES.min, 'The largest download must be at least 1 MiB.')
    .max(MAX_DOWNLOAD_BYTES.max, 'The largest download may be at most 64 GiB.')
    .optional(),
  cacheMaxBytes: z
    .number()
    .int()
    .min(CACHE_MAX_BYTES.min, 'The offline copy must be allowed at least 16 MiB.')
    .max(CACHE_MAX_BYTES.max, 'The offline copy may be at most 16 GiB.')
    .optional(),
  mutedNotificationKinds: z
    .array(z.enum(DESKTOP_NOTIFICATION_KINDS))
    .max(DESKTOP_NOTIFICATION_KINDS.length)
    .optional(),
})

export type { Connectivity } from './offline'

/** The channel map: input schema (checked in main before any work) and output type per channel. */
export const channelInputs = {
  'app.info': z.strictObject({}),
  'api.call': apiCallInput,
  'api.cancel': z.strictObject({ requestId }),
  'accounts.list': z.strictObject({}),
  'accounts.add': addAccountInput,
  'accounts.signIn': signInInput,
  /** Ends the session; `clearOfflineCopy` also deletes the account's offline copy (every identity's). */
  'accounts.signOut': z.strictObject({ accountId, clearOfflineCopy: z.boolean().optional() }),
  'accounts.remove': z.strictObject({ accountId }),
  'accounts.setActive': z.strictObject({ accountId }),
  'demo.start': z.strictObject({}),
  'demo.users': z.strictObject({}),
  /** Adds another user of the demo service as an account (main signs in with the demo's password). */
  'demo.addUser': z.strictObject({ username: z.string().trim().min(3).max(254) }),
  'settings.get': z.strictObject({}),
  'settings.set': settingsInput,
  ...filesInputs,
  ...sessionsInputs,
  ...draftsInputs,
  ...offlineInputs,
  ...csvInputs,
  ...changesInputs,
  ...viewsInputs,
  ...bulkInputs,
  ...sinceInputs,
  ...remediationInputs,
  ...trendsInputs,
  ...pciEvidenceInputs,
  ...intelInputs,
  ...priorityInputs,
  ...assetInputs,
} satisfies Record<ChannelName, z.ZodType>

/** Output type of each channel. */
export interface ChannelOutputs
  extends
    FilesOutputs,
    SessionsOutputs,
    DraftsOutputs,
    OfflineOutputs,
    CsvOutputs,
    ChangesOutputs,
    ViewsOutputs,
    BulkOutputs,
    SinceOutputs,
    RemediationOutputs,
    TrendsOutputs,
    PciEvidenceOutputs,
    IntelOutputs,
    PriorityOutputs,
    AssetOutputs {
  'app.info': AppInfo
  'api.call': ApiCallOutput
  'api.cancel': { cancelled: boolean }
  'accounts.list': AccountList
  'accounts.add': SignInOutcome
  'accounts.signIn': SignInOutcome
  'accounts.signOut': AccountView
  'accounts.remove': { removed: true }
  'accounts.setActive': AccountList
  'demo.start': AccountView
  'demo.users': DemoDirectory | null
  'demo.addUser': SignInOutcome
  'settings.get': Settings
  'settings.set': Settings
}

/**
 * The demo service's address and its users besides the demo's own, for the account panel (null
 * without a demo account). Passwords stay in main: `demo.addUser` signs in with them.
 */
export interface DemoDirectory {
  baseUrl: string
  users: { username: string; about: string; twoFactor: 'none' | 'app' | 'sms' }[]
}

/** The account list with the active account. */
export interface AccountList {
  accounts: AccountView[]
  activeId: string | null
  /**
   * When main read the list, counted up with every reading: lists reach the window by two ways
   * (events and answers) and may arrive out of order, so an older one is not applied over a
   * newer one. Main always sets it.
   */
  revision?: number
}

/** Payload type of each event. */
export interface EventPayloads
  extends FilesEvents, SessionsEvents, OfflineEvents, ChangesEvents, BulkEvents, CsvEvents {
  'accounts.changed': AccountList
  'keychain.status': KeychainStatus
  /** New notifications of an account (the watcher's later rounds): its badge and list refresh. */
  'notifications.arrived': { accountId: string; count: number }
  /**
   * A scan's run ended, as a new notification of the watcher says (scan_completed, scan_failed):
   * the windows read again what they show of that account's scans, findings and reports.
   */
  'scans.runEnded': { accountId: string; scanId: string }
}

/** Input type of channel `C` as the renderer writes it. */
export type ChannelInput<C extends ChannelName> = z.input<(typeof channelInputs)[C]>
/** Input type of channel `C` after validation in main. */
export type ChannelParsed<C extends ChannelName> = z.output<(typeof channelInputs)[C]>
/** Output type of channel `C`. */
export type ChannelOutput<C extends ChannelName> = ChannelOutputs[C]
/** Payload type of event `E`. */
export type EventPayload<E extends EventName> = EventPayloads[E]

/**
 * The surface the preload exposes as `window.scandesk` and browser mode imitates: one named
 * function per request channel, each resolving to the JSON text of a Result (parsed in the
 * renderer: cheaper than structured clone for large pages); `on` hands over the payload only
 * and returns an unsubscribe function.
 */
export type ScanDeskBridge = { [C in ChannelName]: (payload: unknown) => Promise<string> } & {
  on(event: EventName, listener: (payload: unknown) => void): () => void
}
