import { describe, expect, it } from 'vitest'
import { CoreEvents } from '../events'
import type { SettingsRepo } from '../store/settings-repo'
import { NotificationWatcher, type WatchedNotification } from './watcher'

function fakeSettings(values: Record<string, unknown> = {}): SettingsRepo {
  return {
    get: <T>(key: string, fallback: T) => (key in values ? values[key] : fallback) as T,
    set: (key: string, value: unknown) => void (values[key] = value),
  } as unknown as SettingsRepo
}

const note = (id: string, kind = 'scan_completed'): WatchedNotification => ({
  id,
  title: `Title ${id}`,
  body: `Body ${id}`,
  kind,
})

function setup(settings = fakeSettings()) {
  let list: WatchedNotification[] = [note('n1')]
  let fail = false
  const shown: { title: string; body: string }[] = []
  const events = new CoreEvents()
  const arrived: unknown[] = []
  const completed: string[] = []
  const ended: string[] = []
  events.on('notifications.arrived', (p) => arrived.push(p))
  events.on('scans.runEnded', (p) => void ended.push(`${p.accountId} ${p.scanId}`))
  const watcher = new NotificationWatcher({
    events,
    settings,
    host: { notify: (title, body) => void shown.push({ title, body }) },
    log: () => undefined,
    intervalMs: 60_000,
    scanCompleted: (accountId, scanId) => void completed.push(`${accountId} ${scanId}`),
    accounts: () => [{ id: 'acct-1', label: 'Acme' }],
    unseen: async () => {
      if (fail) throw new Error('down')
      return list
    },
  })
  return {
    watcher,
    shown,
    arrived,
    completed,
    ended,
    set: (next: WatchedNotification[]) => void (list = next),
    failing: (on: boolean) => void (fail = on),
  }
}

describe('the notification watcher', () => {
  it('shows the newest three new ones oldest first, then one line counting the rest', async () => {
    const w = setup()
    w.watcher.start()
    await w.watcher.round()
    expect(w.shown).toEqual([])
    w.set(['n7', 'n6', 'n5', 'n4', 'n3', 'n2', 'n1'].map((id) => note(id)))
    await w.watcher.round()
    expect(w.shown.map((s) => s.title)).toEqual([
      'Acme: Title n2',
      'Acme: Title n3',
      'Acme: Title n4',
      'Acme',
    ])
    expect(w.shown[3].body).toBe('3 more new notifications.')
    expect(w.arrived).toEqual([{ accountId: 'acct-1', count: 6 }])
    await w.watcher.round()
    expect(w.shown).toHaveLength(4)
    w.watcher.close()
  })

  it('skips muted kinds, survives a failed round, and learns again after being forgotten', async () => {
    const w = setup(fakeSettings({ notifications_muted_kinds: ['report_ready'] }))
    w.watcher.start()
    await w.watcher.round()
    w.failing(true)
    await w.watcher.round()
    w.failing(false)
    w.set([note('n3', 'scan_failed'), note('n2', 'report_ready'), note('n1')])
    await w.watcher.round()
    expect(w.shown.map((s) => s.title)).toEqual(['Acme: Title n3'])
    w.watcher.forget('acct-1')
    w.set([note('n4'), note('n3', 'scan_failed'), note('n2', 'report_ready'), note('n1')])
    await w.watcher.round()
    expect(w.shown).toHaveLength(1)
    w.watcher.close()
  })

  it('asks nothing before it is started or after it is closed', async () => {
    const w = setup()
    await w.watcher.poll('acct-1')
    w.watcher.start()
    w.watcher.close()
    w.set([note('n2'), note('n1')])
    await w.watcher.round()
    expect(w.shown).toEqual([])
    expect(w.arrived).toEqual([])
  })

  it('names the scan of each new scan_completed notification, muted or not, not the backlog, and tells the windows of every run that ended', async () => {
    const w = setup(fakeSettings({ notifications_muted_kinds: ['scan_completed'] }))
    const about = (id: string, kind: string, scan: string | null) => ({
      ...note(id, kind),
      resourceType: scan ? 'scan' : null,
      resourceId: scan,
    })
    w.set([about('n1', 'scan_completed', 'scn-001')])
    w.watcher.start()
    await w.watcher.round()
    expect(w.completed).toEqual([])
    w.set([
      about('n4', 'scan_failed', 'scn-003'),
      about('n3', 'scan_completed', null),
      about('n2', 'scan_completed', 'scn-002'),
      about('n1', 'scan_completed', 'scn-001'),
    ])
    await w.watcher.round()
    expect(w.completed).toEqual(['acct-1 scn-002'])
    // The windows hear of every run that ended, completed or failed, not of the backlog.
    expect(w.ended).toEqual(['acct-1 scn-003', 'acct-1 scn-002'])
    // Muted scan_completed: no pop-up, still a snapshot; scan_failed is not muted.
    expect(w.shown.map((n) => n.title)).toEqual(['Acme: Title n4'])
    w.watcher.close()
  })
})
