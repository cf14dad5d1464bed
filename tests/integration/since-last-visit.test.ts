// "Since your last visit" against the real sandbox over HTTP: after a scan is run again, the
// counts equal a brute-force count over every finding, scan and exception the sandbox lists (new
// findings: the list's total for a first-seen range, which the link opens); fixed findings equal
// the exact comparison of the two runs' snapshots; offline, the same counts come from the copy.
import { describe, expect, it } from 'vitest'
import type { ChangesAnswer, SnapshotSummary } from '@contract/changes'
import { EXPIRING_DAYS, type SinceAnswer } from '@contract/since'
import { addAnalyst, startTestCore, type TestCore } from './core-helpers'
import { useSandboxAndCore } from './fixture'
import { until } from './sessions-helpers'

const s = useSandboxAndCore({ each: 'none', sandbox: { scanDurationMs: 400 } })

type Row = { id: string; attributes: Record<string, unknown> }

/** Every row of a list, page by page (the brute force the counts must agree with). */
async function everything(t: TestCore, accountId: string, op: string): Promise<Row[]> {
  const rows: Row[] = []
  for (let page = 1; ; page++) {
    const answer = await t.ok<{
      data: { data: Row[]; meta?: { pagination?: { total_pages?: number } } }
    }>('api.call', { accountId, op, input: { query: { page, per_page: 500 } } })
    rows.push(...answer.data.data)
    if (page >= (answer.data.meta?.pagination?.total_pages ?? 1)) return rows
  }
}

const after = (row: Row, field: string, since: string) =>
  Date.parse(String(row.attributes[field])) > Date.parse(since)
/** First seen at or after the moment (the service's `first_seen_after` is inclusive). */
const since = (row: Row, at: string) =>
  Date.parse(String(row.attributes.first_seen_at)) >= Date.parse(at)

describe('since your last visit over HTTP', () => {
  it('counts what a brute force over the sandbox counts after a scan is run again', async () => {
    s.sandbox.reset()
    const t = await startTestCore({ notificationIntervalMs: 100 })
    try {
      const { id: accountId } = await addAnalyst(t, s.sandbox)
      const snapshotsOf = async () =>
        (
          await t.ok<{ snapshots: SnapshotSummary[] }>('changes.snapshots', {
            accountId,
            scanId: 'scn-001',
          })
        ).snapshots
      const runOnce = async (count: number) => {
        await t.ok('api.call', { accountId, op: 'scans.start', input: { path: { id: 'scn-001' } } })
        await until(
          () => t.events.filter((e) => e.name === 'changes.snapshotTaken').length === count,
          15_000,
        )
      }
      // The watcher learns the backlog first; then a run it sees complete is kept as a snapshot.
      await until(
        () => s.sandbox.requests.filter((l) => l.startsWith('GET /v2/notifications')).length >= 2,
      )
      await runOnce(1)

      const first = await t.ok<SinceAnswer>('since.counts', { accountId })
      expect(first.firstVisit).toBe(true)
      // Leaving the dashboard does not move the digest; marking it reviewed moves it to what it
      // had counted up to.
      await t.ok('since.left', { accountId, until: first.until })
      expect(await t.ok<SinceAnswer>('since.counts', { accountId })).toMatchObject({
        firstVisit: true,
        since: first.since,
      })
      const { since: seenAt } = await t.ok<{ since: string }>('since.reviewed', {
        accountId,
        until: first.until,
      })
      expect(seenAt).toBe(first.until)
      await new Promise((r) => setTimeout(r, 20))
      await runOnce(2)

      const counts = await t.ok<SinceAnswer>('since.counts', { accountId })
      expect(counts).toMatchObject({ firstVisit: false, since: seenAt })

      const findings = await everything(t, accountId, 'vulnerabilities.list')
      const freshOf = (severity: string) =>
        findings.filter((f) => f.attributes.severity === severity && since(f, seenAt))
      const fresh = (severity: string) => freshOf(severity).length
      expect(counts.newCritical.value).toBe(fresh('critical'))
      expect(counts.newHigh.value).toBe(fresh('high'))
      // The re-run found something new and severe (the sandbox's runs evolve): not trivially 0.
      expect(fresh('critical') + fresh('high')).toBeGreaterThan(0)
      const scans = await everything(t, accountId, 'scans.list')
      const completed = scans.filter(
        (x) => x.attributes.status === 'completed' && after(x, 'finished_at', seenAt),
      )
      expect(completed.map((x) => x.id)).toContain('scn-001')
      expect(counts.scansCompleted.value).toBe(completed.length)

      const now = Date.now()
      const exceptions = await everything(t, accountId, 'exceptions.list')
      const expiring = exceptions.filter((x) => {
        const at = Date.parse(String(x.attributes.expires_at))
        return (
          x.attributes.state === 'active' && at >= now && at <= now + EXPIRING_DAYS * 86_400_000
        )
      })
      expect(counts.expiring.value).toBe(expiring.length)

      // Fixed: the two runs' snapshots compared exactly, as the scan's Changes says.
      const [latest, previous] = await snapshotsOf()
      const changes = await t.ok<ChangesAnswer>('changes.compare', {
        accountId,
        scanId: 'scn-001',
        from: previous.runId,
        to: latest.runId,
      })
      expect(changes.comparison!.fixed.length).toBeGreaterThan(0)
      expect(counts.fixed).toMatchObject({
        value: changes.comparison!.fixed.length,
        scanIds: ['scn-001'],
      })

      // The count's link opens the list filtered to exactly those findings: first seen from the
      // moment up to the counts' own "until", so what a later run finds is not among them.
      await runOnce(3)
      const now3 = await everything(t, accountId, 'vulnerabilities.list')
      const countedUntil = Date.parse(counts.until)
      let later = 0
      for (const severity of ['critical', 'high']) {
        const linked = async (bounds: Record<string, string>) =>
          (
            await t.ok<{ data: { data: Row[] } }>('api.call', {
              accountId,
              op: 'vulnerabilities.list',
              input: { query: { severity, first_seen_after: seenAt, ...bounds, per_page: 500 } },
            })
          ).data.data.map((r) => r.id)
        const bounded = await linked({ first_seen_before: counts.until })
        // (the run may have rescored one into or out of the severity: the ids it has now)
        const counted = now3.filter(
          (f) =>
            f.attributes.severity === severity &&
            since(f, seenAt) &&
            Date.parse(String(f.attributes.first_seen_at)) < countedUntil,
        )
        expect(bounded.sort()).toEqual(counted.map((r) => r.id).sort())
        later += (await linked({})).length - bounded.length
      }
      // …and without the bound the list would have moved on: the third run found more.
      expect(later).toBeGreaterThan(0)

      // Offline: the same reads answered by the offline copy.
      await t.ok('connectivity.setWorkOffline', { on: true })
      const offline = await t.ok<SinceAnswer>('since.counts', { accountId })
      expect(offline.newCritical).toMatchObject({
        value: counts.newCritical.value,
        fromCache: true,
      })
      expect(offline.scansCompleted).toMatchObject({
        value: counts.scansCompleted.value,
        fromCache: true,
      })
      expect(offline.expiring.value).toBe(counts.expiring.value)

      // Reviewed offline, the moment moves: the copy holds no count since it, and says so (the
      // scans, read sorted whatever the moment, are still counted from it).
      await t.ok('since.reviewed', { accountId, until: offline.until })
      const moved = await t.ok<SinceAnswer>('since.counts', { accountId })
      expect(moved.newHigh).toMatchObject({ value: null, fromCache: false })
      expect(moved.newHigh.note).toMatch(
        /^Not known offline: the offline copy holds no count since/,
      )
      expect(moved.scansCompleted.fromCache).toBe(true)
    } finally {
      await t.close()
    }
  })

  it('says it cannot tell offline when the offline copy never held the lists', async () => {
    s.sandbox.reset()
    const t = await startTestCore({ notificationIntervalMs: 0 })
    try {
      const { id: accountId } = await addAnalyst(t, s.sandbox)
      await t.ok('connectivity.setWorkOffline', { on: true })
      const answer = await t.ok<SinceAnswer>('since.counts', { accountId })
      expect(answer.newCritical.value).toBeNull()
      expect(answer.newCritical.note).toMatch(/^Not known offline/)
      expect(answer.fixed.value).toBeNull()
    } finally {
      await t.close()
    }
  })
})
