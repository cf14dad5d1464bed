import type { NOTIFICATION_KINDS } from '@contract/catalog/notifications'
import { DESKTOP_NOTIFICATION_KINDS, type DesktopNotificationKind } from '@contract/channels'
import type { CoreEvents } from '../events'
import type { DueCheck } from './due-check'
import type { HostServices } from '../host'
import type { SettingsRepo } from '../store/settings-repo'

/** One kind of notification the service sends (scan_completed, report_ready, …). */
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]

/** A notification as the watcher needs it (from notifications.list). */
export interface WatchedNotification {
  id: string
  title: string
  body: string | null
  kind: string
  /** What the notification is about (a scan_completed names its scan). */
  resourceType?: string | null
  resourceId?: string | null
}

/** What the watcher needs from the rest of main. */
export interface NotificationWatcherDeps {
  events: CoreEvents
  settings: SettingsRepo
  host: Pick<HostServices, 'notify'>
  log: (level: 'info' | 'warn' | 'error', message: string) => void
  /** The accounts to watch now: signed in and not known to be down. */
  accounts(): { id: string; label: string }[]
  /** The account's unseen notifications, newest first (throws when it cannot ask). */
  unseen(accountId: string): Promise<WatchedNotification[]>
  /**
   * Told of every new `scan_completed` notification naming its scan (muted or not, not the
   * backlog learnt at the first round): the run's snapshot is taken.
   */
  scanCompleted?(accountId: string, scanId: string): void
  /** Between two rounds (default 60 s). */
  intervalMs?: number
  /** Findings that became overdue or due soon (accounts that asked for it), checked each round. */
  due?: DueCheck
}

/** Notifications that say a scan's run ended (completed or failed). */
const RUN_END_KINDS: readonly string[] = ['scan_completed', 'scan_failed']

const MUTED_KEY = 'notifications_muted_kinds'
/** How many ids of one account the watcher remembers (the newest). */
const MEMORY = 500

/** The kinds the user chose not to hear of on the desktop (Settings.mutedNotificationKinds). */
export function readMutedKinds(settings: SettingsRepo): DesktopNotificationKind[] {
  const stored = settings.get<unknown>(MUTED_KEY, [])
  return Array.isArray(stored) ? DESKTOP_NOTIFICATION_KINDS.filter((k) => stored.includes(k)) : []
}

/** Stores the muted kinds (undefined: unchanged). */
export function writeMutedKinds(
  settings: SettingsRepo,
  kinds: DesktopNotificationKind[] | undefined,
) {
  if (kinds !== undefined) settings.set(MUTED_KEY, [...new Set(kinds)])
}

/**
 * Watches each signed-in account's unseen notifications. The first round of an account only
 * learns what is there (no backlog of pop-ups at start or sign-in); later rounds raise one native
 * notification per new one, unless its kind is muted, and tell the windows
 * (`notifications.arrived`) so the unread badge and the list refresh, and of each scan whose run
 * ended (`scans.runEnded`, muted or not) so what they show of it is read again.
 */
export class NotificationWatcher {
  private readonly known = new Map<string, string[]>()
  private readonly running = new Set<string>()
  private timer: NodeJS.Timeout | null = null
  private closed = false

  constructor(private readonly deps: NotificationWatcherDeps) {}

  /** Starts the rounds. */
  start(): void {
    if (this.timer || this.closed) return
    this.timer = setInterval(() => void this.round(), this.deps.intervalMs ?? 60_000)
    this.timer.unref()
    void this.round()
  }

  /** One round over every watched account (also run when an account comes online). */
  async round(): Promise<void> {
    await Promise.all(this.deps.accounts().map((a) => this.poll(a.id, a.label)))
  }

  /** Asks one account now (after it came back online or signed in). */
  async poll(accountId: string, label?: string): Promise<void> {
    if (!this.timer || this.running.has(accountId)) return
    this.running.add(accountId)
    try {
      const list = await this.deps.unseen(accountId)
      if (this.closed) return
      const before = this.known.get(accountId)
      const fresh = before ? list.filter((n) => !before.includes(n.id)) : []
      this.known.set(accountId, [...list.map((n) => n.id), ...(before ?? [])].slice(0, MEMORY))
      await this.checkDue(accountId, label)
      if (!fresh.length) return
      for (const n of fresh) {
        if (n.resourceType !== 'scan' || !n.resourceId || !RUN_END_KINDS.includes(n.kind)) continue
        // The windows read the scan again (its status, its Changes and Reports).
        this.deps.events.emit('scans.runEnded', { accountId, scanId: n.resourceId })
        if (n.kind === 'scan_completed') this.deps.scanCompleted?.(accountId, n.resourceId)
      }
      const muted = readMutedKinds(this.deps.settings) as string[]
      const name =
        label ?? this.deps.accounts().find((a) => a.id === accountId)?.label ?? 'ScanDesk'
      // Oldest first, as they happened; at most three pop-ups a round, then one that counts.
      const shown = fresh.filter((n) => !muted.includes(n.kind)).reverse()
      for (const n of shown.slice(0, 3)) this.deps.host.notify(`${name}: ${n.title}`, n.body ?? '')
      if (shown.length > 3)
        this.deps.host.notify(name, `${shown.length - 3} more new notifications.`)
      this.deps.events.emit('notifications.arrived', { accountId, count: fresh.length })
    } catch (err) {
      // The connectivity monitor hears of the failure from the client; nothing to show here.
      this.deps.log('info', `notifications of ${accountId} not checked: ${(err as Error).message}`)
    } finally {
      this.running.delete(accountId)
    }
  }

  /** ScanDesk's due-date news of the account (its own failures do not stop the round). */
  private async checkDue(accountId: string, label: string | undefined): Promise<void> {
    if (!this.deps.due) return
    try {
      const news = await this.deps.due.check(accountId)
      if (this.closed || !news.length) return
      const muted = readMutedKinds(this.deps.settings) as string[]
      const name =
        label ?? this.deps.accounts().find((a) => a.id === accountId)?.label ?? 'ScanDesk'
      for (const n of news)
        if (!muted.includes(n.kind)) this.deps.host.notify(`${name}: ${n.title}`, n.body)
    } catch (err) {
      this.deps.log('info', `due dates of ${accountId} not checked: ${(err as Error).message}`)
    }
  }

  /** Learns what an account has at once when the watcher knows nothing of it yet (a sign-in). */
  learn(accountId: string): void {
    if (this.timer && !this.known.has(accountId)) void this.poll(accountId)
  }

  /** Forgets an account (removed or signed out): its next round learns again. */
  forget(accountId: string): void {
    this.known.delete(accountId)
    this.deps.due?.forget(accountId)
  }

  /** Stops the rounds. */
  close(): void {
    this.closed = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }
}
