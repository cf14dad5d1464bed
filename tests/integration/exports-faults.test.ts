// Faults during exports through core.dispatch against the real sandbox: a dropped connection,
// cancelling, a 401 mid-download with automatic resumption after sign-in, and a restart.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AccountList } from '@contract/channels'
import type { ExportJob } from '@contract/files'
import { filesIn, ledgerOf, waitForJob } from './exports-helpers'
import { useSandboxAndCore } from './fixture'
import { until } from './sessions-helpers'

const s = useSandboxAndCore({ each: 'exports' })

const FINAL = ['verified', 'failed', 'mismatch', 'cancelled'] as const

async function generate(resourceId: string, format: 'pdf' | 'csv'): Promise<ExportJob> {
  return s.t.ok<ExportJob>('exports.generate', {
    accountId: s.account.id,
    kind: 'report',
    resourceId,
    format,
  })
}

async function firstProgress(jobId: string): Promise<ExportJob> {
  const until = Date.now() + 10_000
  while (Date.now() < until) {
    const seen = s.t.events
      .map((e) => e.payload as ExportJob)
      .find((j) => j.id === jobId && j.state === 'downloading' && (j.progress?.bytes ?? 0) > 0)
    if (seen) return seen
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error('no progress event')
}

describe('a connection dropped in the middle of the body', () => {
  it('fails the job with a readable error, keeps no file and records what happened', async () => {
    const job = await generate('rpt-001', 'pdf')
    await waitForJob(s.t, s.account.id, job.id, ['ready'])
    s.sandbox.setFaults({ dropMidBody: true })
    await s.t.ok('exports.download', { jobId: job.id })
    const done = await waitForJob(s.t, s.account.id, job.id, [...FINAL])
    expect(done.state).toBe('failed')
    expect(done.error?.code).toMatch(/INTEGRITY_FAILED|OFFLINE/)
    expect(done.error?.message.length).toBeGreaterThan(10)
    expect(filesIn(s.folder)).toEqual([])
    const [entry] = await ledgerOf(s.t, s.account.id)
    expect(entry).toMatchObject({ id: done.ledgerId, verdict: 'unverified', size: 0 })
    expect(entry.detail).toContain(done.error!.message)
    expect(path.dirname(entry.path)).toBe(s.folder)
    expect(s.host.notes.map((n) => n.title)).toContain('Download failed')

    s.sandbox.setFaults({ dropMidBody: false })
    await s.t.ok('exports.retry', { jobId: job.id })
    expect((await waitForJob(s.t, s.account.id, job.id, [...FINAL])).state).toBe('verified')
  })
})

describe('cancelling', () => {
  it('stops polling a generation', async () => {
    const job = await generate('rpt-011', 'csv')
    await waitForJob(s.t, s.account.id, job.id, ['generating'])
    const cancelled = await s.t.ok<ExportJob>('exports.cancel', { jobId: job.id })
    expect(cancelled.state).toBe('cancelled')
    s.sandbox.advanceClock(10_000)
    await new Promise((r) => setTimeout(r, 200))
    expect((await waitForJob(s.t, s.account.id, job.id, ['cancelled'])).state).toBe('cancelled')
    const retried = await s.t.ok<ExportJob>('exports.retry', { jobId: job.id })
    expect(retried.state).toBe('queued')
    expect((await waitForJob(s.t, s.account.id, job.id, ['ready'])).state).toBe('ready')
  })

  it('aborts a running download and leaves no file behind', async () => {
    const job = await generate('rpt-002', 'pdf')
    await waitForJob(s.t, s.account.id, job.id, ['ready'])
    s.sandbox.setFaults({ slowDripMs: 400 })
    await s.t.ok('exports.download', { jobId: job.id })
    const moving = await firstProgress(job.id)
    expect(moving.progress!.total).toBeGreaterThan(moving.progress!.bytes)
    const cancelled = await s.t.ok<ExportJob>('exports.cancel', { jobId: job.id })
    expect(cancelled).toMatchObject({ state: 'cancelled', path: null, error: null })
    expect(fs.readdirSync(s.folder)).toEqual([])
    expect(await ledgerOf(s.t, s.account.id)).toEqual([])
    const dismissed = await s.t.ok('exports.dismiss', { jobId: job.id })
    expect(dismissed).toEqual({ dismissed: true })
    expect(await s.t.ok('exports.list', { accountId: s.account.id })).toEqual([])
  })

  it('refuses to dismiss a running job', async () => {
    const job = await generate('rpt-011', 'pdf')
    const error = await s.t.err('exports.dismiss', { jobId: job.id })
    expect(error.code).toBe('CONFLICT')
    await s.t.ok('exports.cancel', { jobId: job.id })
  })
})

describe('the session refused in the middle of a download', () => {
  const reauthEvents = () => s.t.events.filter((e) => e.name === 'accounts.reauthRequired')

  /** Downloads a ready PDF report into a session the service refuses; returns when it waits. */
  async function downloadRefused(resourceId: string): Promise<ExportJob> {
    const job = await generate(resourceId, 'pdf')
    await waitForJob(s.t, s.account.id, job.id, ['ready'])
    s.sandbox.setFaults({ unauthorizedAfter: 1 })
    // Spend the one allowed request, so the download itself is refused.
    await s.t.ok('api.call', {
      accountId: s.account.id,
      op: 'reports.show',
      input: { path: { id: resourceId } },
    })
    await s.t.ok('exports.download', { jobId: job.id })
    await until(() => reauthEvents().length > 0)
    return job
  }

  it('shows no file while it waits, then restarts from the start after sign-in', async () => {
    const job = await downloadRefused('rpt-004')
    const list = await s.t.ok<AccountList>('accounts.list')
    expect(list.accounts[0]).toMatchObject({ signedIn: false, awaitingReauth: true })
    // Nothing the user could open: at most the hidden temporary file the retry will reuse.
    expect(filesIn(s.folder).filter((f) => !/^\..*\.partial$/.test(f))).toEqual([])
    s.sandbox.setFaults({ unauthorizedAfter: 0 })
    await s.t.ok('accounts.signIn', { accountId: s.account.id, password: 'sandbox-password' })
    const done = await waitForJob(s.t, s.account.id, job.id, [...FINAL])
    expect(done.state).toBe('verified')
    expect(filesIn(s.folder)).toEqual([path.basename(done.path!)])
    expect(reauthEvents()).toHaveLength(1)
  })

  it('fails with NOT_SIGNED_IN, keeps nothing and says so when the sign-in is cancelled', async () => {
    const job = await downloadRefused('rpt-003')
    await s.t.ok('accounts.cancelReauth', { accountId: s.account.id })
    const failed = await waitForJob(s.t, s.account.id, job.id, [...FINAL])
    expect(failed.state).toBe('failed')
    expect(failed.error?.code).toBe('NOT_SIGNED_IN')
    expect(filesIn(s.folder)).toEqual([])
    const [entry] = await ledgerOf(s.t, s.account.id)
    expect(entry?.detail ?? '').toMatch(/sign in/i)
  })
})

describe('restarting ScanDesk', () => {
  it('resumes polling a generation that was running', async () => {
    const job = await generate('rpt-011', 'pdf')
    await waitForJob(s.t, s.account.id, job.id, ['generating'])
    await s.t.close()
    await s.reopen()
    s.sandbox.advanceClock(5_000)
    expect((await waitForJob(s.t, s.account.id, job.id, ['ready'])).state).toBe('ready')
  })

  it('fails a download that was interrupted, says why, and retries it in one click', async () => {
    const job = await generate('rpt-005', 'pdf')
    await waitForJob(s.t, s.account.id, job.id, ['ready'])
    s.sandbox.setFaults({ slowDripMs: 400 })
    await s.t.ok('exports.download', { jobId: job.id })
    await firstProgress(job.id)
    await s.t.close()
    expect(fs.readdirSync(s.folder)).toEqual([])
    s.sandbox.setFaults({ slowDripMs: 0 })
    await s.reopen()
    const failed = await waitForJob(s.t, s.account.id, job.id, ['failed'])
    expect(failed.error?.message).toMatch(/^Interrupted: ScanDesk was closed during the download/)
    const [entry] = await ledgerOf(s.t, s.account.id)
    expect(entry).toMatchObject({ verdict: 'unverified', size: 0 })
    expect(entry.detail).toMatch(/Interrupted/)
    await s.t.ok('exports.retry', { jobId: job.id })
    expect((await waitForJob(s.t, s.account.id, job.id, [...FINAL])).state).toBe('verified')
  })
})
