// New notifications of a signed-in account raise native notifications through the host (not the
// backlog found at sign-in, not muted kinds) and tell the windows, against the real sandbox: a
// scan the analyst starts completes and the service notifies them.
import { describe, expect, it } from 'vitest'
import type { Settings } from '@contract/channels'
import { addAnalyst, startTestCore, type TestCore } from './core-helpers'
import { recordingHost } from './exports-helpers'
import { useSandboxAndCore } from './fixture'
import { until } from './sessions-helpers'

const s = useSandboxAndCore({ each: 'none', sandbox: { scanDurationMs: 60_000 } })

async function watching(): Promise<{ t: TestCore; host: ReturnType<typeof recordingHost> }> {
  s.sandbox.reset()
  const host = recordingHost()
  const t = await startTestCore({ host, notificationIntervalMs: 150 })
  return { t, host }
}

const unseenAsked = () =>
  s.sandbox.requests.filter((line) => line.startsWith('GET /v2/notifications')).length

describe('the notification watcher', () => {
  it('learns the backlog quietly, then raises one desktop notification per new one', async () => {
    const { t, host } = await watching()
    try {
      const account = await addAnalyst(t, s.sandbox)
      await until(() => unseenAsked() >= 2)
      // The seeded unseen notifications were there before: no pop-up for them.
      expect(host.notes).toEqual([])

      await t.ok('api.call', {
        accountId: account.id,
        op: 'scans.start',
        input: { path: { id: 'scn-001' } },
      })
      s.sandbox.advanceClock(2 * 60_000)
      await until(() => host.notes.length > 0)
      expect(host.notes.some((n) => /^Sandbox analyst: Scan completed: /.test(n.title))).toBe(true)
      const arrived = t.events.filter((e) => e.name === 'notifications.arrived')
      expect(arrived.at(-1)?.payload).toMatchObject({ accountId: account.id })
      // The windows are told which scan's run ended, so they read it again.
      const ended = t.events.filter((e) => e.name === 'scans.runEnded').map((e) => e.payload)
      expect(ended).toContainEqual({ accountId: account.id, scanId: 'scn-001' })
      // No secret in what the desktop shows.
      expect(JSON.stringify(host.notes)).not.toContain(s.sandbox.apiKey)
    } finally {
      await t.close()
    }
  })

  it('stays quiet for a muted kind but still tells the windows', async () => {
    const { t, host } = await watching()
    try {
      const saved = await t.ok<Settings>('settings.set', {
        mutedNotificationKinds: ['scan_completed', 'scan_failed'],
      })
      expect(saved.mutedNotificationKinds).toEqual(['scan_completed', 'scan_failed'])
      const account = await addAnalyst(t, s.sandbox)
      await until(() => unseenAsked() >= 2)
      await t.ok('api.call', {
        accountId: account.id,
        op: 'scans.start',
        input: { path: { id: 'scn-001' } },
      })
      s.sandbox.advanceClock(2 * 60_000)
      await until(() => t.events.some((e) => e.name === 'notifications.arrived'))
      expect(host.notes.filter((n) => n.title.includes('Scan completed'))).toEqual([])
    } finally {
      await t.close()
    }
  })

  it('refuses an unknown kind in the settings', async () => {
    const { t } = await watching()
    try {
      const error = await t.err('settings.set', { mutedNotificationKinds: ['everything'] })
      expect(error.code).toBe('VALIDATION')
    } finally {
      await t.close()
    }
  })
})
