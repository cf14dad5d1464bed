import { describe, expect, it } from 'vitest'
import { DAY_MS, DEFAULT_POLICY, type RemediationPolicyDocument } from '@contract/remediation'
import { CoreEvents } from '../events'
import type { SettingsRepo } from '../store/settings-repo'
import { DueCheck } from './due-check'
import { NotificationWatcher } from './watcher'

const T0 = Date.parse('2026-11-26T10:00:00.000Z')

/**
 * A due check over made-up findings (first-seen instants per severity): the count answers what
 * vulnerabilities.list would for the query's severity and first-seen range.
 */
function setup(doc: RemediationPolicyDocument = { policy: DEFAULT_POLICY, notify: true }) {
  let now = T0
  let fail = false
  const findings: { severity: string; first: number }[] = []
  const queries: Record<string, string>[] = []
  const check = new DueCheck({
    policy: () => doc,
    now: () => now,
    everyMs: 60_000,
    count: async (_id, q) => {
      if (fail) throw new Error('the service is down')
      queries.push(q)
      const after = Date.parse(q.first_seen_after)
      const before = Date.parse(q.first_seen_before)
      return findings.filter(
        (f) => f.severity === q.severity && f.first >= after && f.first < before,
      ).length
    },
  })
  return {
    check,
    findings,
    queries,
    doc,
    at: (t: number) => void (now = t),
    failing: (on: boolean) => void (fail = on),
  }
}

describe('the due check', () => {
  it('is quiet at its first look, then tells of findings that crossed a line since', async () => {
    const s = setup()
    // Critical (15 days): one becomes overdue within the next hour, one comes within 7 days.
    s.findings.push({ severity: 'critical', first: T0 - 15 * DAY_MS + 30 * 60_000 })
    s.findings.push({ severity: 'critical', first: T0 - 8 * DAY_MS + 10 * 60_000 })
    // Overdue long ago, and far from due: never news.
    s.findings.push({ severity: 'high', first: T0 - 90 * DAY_MS })
    s.findings.push({ severity: 'high', first: T0 })
    expect(await s.check.check('acc')).toEqual([])
    expect(s.queries).toEqual([])
    s.at(T0 + 60 * 60_000)
    const news = await s.check.check('acc')
    expect(news.map((n) => [n.kind, n.title])).toEqual([
      ['findings_overdue', '1 finding became overdue'],
      ['findings_due_soon', '1 finding will be overdue within 7 days'],
    ])
    expect(news[0].body).toContain('1 critical')
    expect(news[0].body).toContain("ScanDesk's")
    // One read per severity and kind, each one row.
    expect(s.queries).toHaveLength(8)
    expect(s.queries.every((q) => q.per_page === '1')).toBe(true)
    // The next look starts where this one ended: the same findings are not told again.
    s.at(T0 + 2 * 60 * 60_000)
    expect(await s.check.check('acc')).toEqual([])
  })

  it('asks nothing while notifications are off, and starts quiet when they are turned on', async () => {
    const s = setup({ policy: DEFAULT_POLICY, notify: false })
    s.findings.push({ severity: 'critical', first: T0 - 15 * DAY_MS + 30 * 60_000 })
    expect(await s.check.check('acc')).toEqual([])
    s.at(T0 + 60 * 60_000)
    expect(await s.check.check('acc')).toEqual([])
    expect(s.queries).toEqual([])
    s.doc.notify = true
    expect(await s.check.check('acc')).toEqual([]) // first look since turned on
  })

  it('does not look again before its interval, and a failed look covers the gap next time', async () => {
    const s = setup()
    s.findings.push({ severity: 'critical', first: T0 - 15 * DAY_MS + 30 * 60_000 })
    await s.check.check('acc')
    s.at(T0 + 30_000)
    expect(await s.check.check('acc')).toEqual([]) // before its interval: nothing asked
    expect(s.queries).toEqual([])
    s.failing(true)
    s.at(T0 + 60 * 60_000)
    await expect(s.check.check('acc')).rejects.toThrow('down')
    s.failing(false)
    s.at(T0 + 2 * 60 * 60_000)
    expect((await s.check.check('acc')).map((n) => n.kind)).toEqual(['findings_overdue'])
  })
})

describe('the watcher with the due check', () => {
  const settings = (values: Record<string, unknown>) =>
    ({
      get: <T>(key: string, fallback: T) => (key in values ? values[key] : fallback) as T,
      set: (key: string, value: unknown) => void (values[key] = value),
    }) as unknown as SettingsRepo

  async function run(muted: string[]) {
    const s = setup()
    s.findings.push({ severity: 'high', first: T0 - 30 * DAY_MS + 30 * 60_000 })
    const shown: string[] = []
    const watcher = new NotificationWatcher({
      events: new CoreEvents(),
      settings: settings({ notifications_muted_kinds: muted }),
      host: { notify: (title) => void shown.push(title) },
      log: () => undefined,
      intervalMs: 60_000,
      accounts: () => [{ id: 'acct-1', label: 'Acme' }],
      unseen: async () => [],
      due: s.check,
    })
    watcher.start()
    await watcher.round()
    s.at(T0 + 60 * 60_000)
    await watcher.round()
    watcher.close()
    return shown
  }

  it('shows what became overdue under the account’s name, unless that kind is muted', async () => {
    expect(await run([])).toEqual(['Acme: 1 finding became overdue'])
    expect(await run(['findings_overdue'])).toEqual([])
  })
})
