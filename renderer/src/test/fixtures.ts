// Small builders of contract values for unit tests.
import type { ExportJob, LedgerEntry } from '@contract/files'
import type { AccountView } from '@contract/accounts'
import type { Settings } from '@contract/channels'
import type { BulkRunView } from '@contract/bulk'
import {
  CACHE_MAX_BYTES,
  type Connectivity,
  type ConnectivityState,
  type OutboxItem,
} from '@contract/offline'
import { Fail } from './fakeScandesk'

/** What main reports about acct-aaaa's service (checked now, no next check planned). */
export function connectivity(
  state: ConnectivityState,
  over: Partial<Connectivity> = {},
): Connectivity {
  return {
    accountId: 'acct-aaaa',
    state,
    online: state === 'online',
    checkedAt: new Date().toISOString(),
    message: null,
    nextCheckAt: null,
    ...over,
  }
}

/** The settings main keeps, as they start (light theme), with `over` on top. */
export function settingsOf(over: Partial<Settings> = {}): Settings {
  return {
    theme: 'light',
    mismatchAction: 'quarantine',
    notifyOnFinish: true,
    maxDownloadBytes: 4 * 1024 ** 3,
    cacheMaxBytes: CACHE_MAX_BYTES.default,
    mutedNotificationKinds: [],
    ...over,
  }
}

/** Port list prt-1 ("Web servers", external) as the service shows it, `over` its attributes. */
export const portListRecord = (over: Record<string, unknown> = {}) => ({
  id: 'prt-1',
  type: 'port_list',
  attributes: {
    name: 'Web servers',
    app_type: 'external_scan',
    activated: true,
    ranges: [],
    port_count: 1025,
    ...over,
  },
})

/** An account as main would describe it. */
export function account(id: string, extra: Partial<AccountView> = {}): AccountView {
  return {
    id,
    label: `Account ${id}`,
    baseUrl: 'https://scanner.example.com',
    username: 'analyst@example.com',
    release: 'latest',
    color: '#3366ff',
    authMethod: 'password',
    signedIn: true,
    secretsInMemoryOnly: false,
    isDemo: false,
    impersonating: null,
    rememberPassword: false,
    hasCaBundle: false,
    awaitingReauth: false,
    createdAt: '2030-01-01T00:00:00Z',
    ...extra,
  }
}

/** An upcoming scans answer of api.call with `n` items named after `prefix`. */
export function upcomingAnswer(prefix: string, n: number, fromCache = false) {
  return {
    data: {
      data: Array.from({ length: n }, (_, i) => ({
        id: `${prefix}-${i + 1}`,
        type: 'upcoming_scan',
        attributes: {
          name: `${prefix} scan ${i + 1}`,
          description: `${prefix} description ${i + 1}`,
          next_scheduled_at: new Date(Date.UTC(2030, 0, 2 + i, 9)).toISOString(),
          in_timezone: 'UTC',
        },
      })),
    },
    fetchedAt: '2030-01-01T00:00:00Z',
    fromCache,
  }
}

let uuidCounter = 0
/** A local id (UUID-shaped) like main generates for jobs and ledger entries. */
export function localUuid(): string {
  uuidCounter++
  return `00000000-0000-4000-8000-${uuidCounter.toString(16).padStart(12, '0')}`
}

/** An export job as main would push it. */
export function exportJob(accountId: string, extra: Partial<ExportJob> = {}): ExportJob {
  return {
    id: localUuid(),
    accountId,
    kind: 'report',
    resourceId: 'rpt-001',
    resourceName: 'Quarterly external scan',
    format: 'pdf',
    state: 'queued',
    error: null,
    progress: null,
    path: null,
    sha256: null,
    ledgerId: null,
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
    ...extra,
  }
}

/** A file ledger entry. */
export function ledgerEntry(extra: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    id: localUuid(),
    accountId: 'acct-aaaa',
    accountLabel: 'Account acct-aaaa',
    kind: 'report',
    resourceId: 'rpt-001',
    resourceName: 'Quarterly external scan',
    format: 'pdf',
    path: '/home/me/Reports/Quarterly external scan rpt-001 2030-01-01.pdf',
    size: 12_345,
    sha256: 'a'.repeat(64),
    verdict: 'verified',
    detail: null,
    downloadedAt: '2030-01-01T00:00:00.000Z',
    verifiedAt: '2030-01-01T00:00:01.000Z',
    saq: null,
    ...extra,
  }
}

/** A reports.list answer of api.call: `n` reports of page `page`, out of `total`. */
export function reportsAnswer(n: number, total = n, page = 1) {
  return {
    data: {
      data: Array.from({ length: n }, (_, i) => ({
        id: `rpt-${String((page - 1) * n + i + 1).padStart(3, '0')}`,
        type: 'report',
        attributes: {
          name: `Report ${(page - 1) * n + i + 1}`,
          report_type: 'scan_summary',
          status: 'ready',
          created_at: '2030-01-01T00:00:00Z',
        },
      })),
      meta: { pagination: { current_page: page, per_page: n, total_count: total } },
    },
    fetchedAt: '2030-01-01T00:00:00Z',
    fromCache: false,
  }
}

/** app.info as main answers it in `mode` (the browser build has no native dialogs), keychain available. */
export function appInfo(mode: 'browser' | 'electron') {
  return { mode, version: '1.0.0', keychain: { available: true, message: null } }
}

/** What main says about itself in browser mode. */
export const browserAppInfo = () => appInfo('browser')

/** main's answer to a second factor sent after the sign-in's time ran out. */
export function challengeExpired(): Fail {
  return new Fail({
    code: 'CHALLENGE_EXPIRED',
    message: 'The sign-in took too long; sign in again.',
  })
}

/** One queued write (of acct-aaaa unless `over` says otherwise). */
export function outboxItem(id: string, over: Partial<OutboxItem> = {}): OutboxItem {
  return {
    id,
    accountId: 'acct-aaaa',
    accountLabel: 'Label acct-aaaa',
    op: 'notifications.mark_read',
    summary: 'Mark a notification read',
    target: 'ntf-1',
    state: 'queued',
    error: null,
    attempts: 0,
    createdAt: '2030-01-01T00:00:00Z',
    lastTriedAt: null,
    kept: 'disk',
    ...over,
  }
}

/** A bulk run creating exceptions, `done` of its `total` writes done (the others queued). */
export function bulkRun(
  done: number,
  total: number,
  extra: Partial<BulkRunView> = {},
): BulkRunView {
  return {
    id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
    accountId: 'acct-aaaa',
    action: 'exceptions.create',
    summary: 'Create exceptions',
    body: { kind: 'accepted_risk', reason: 'Segment isolated', expires_at: '2099-01-01T00:00:00Z' },
    counts: { queued: total - done, sending: 0, done, skipped: 0, failed: 0, cancelled: 0, total },
    state: done === total ? 'finished' : 'running',
    createdAt: '2026-11-26T10:00:00Z',
    updatedAt: '2026-11-26T10:00:00Z',
    kept: 'disk',
    ...extra,
  }
}
