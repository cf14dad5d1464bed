// Size limits of downloads over real HTTP: a proxy on 127.0.0.1 forwards everything to the
// sandbox but answers the report downloads itself when a test says so (a Content-Length that
// lies, or an endless body without one). A refused download keeps no file and no ledger entry,
// and the job says what to do.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Settings } from '@contract/channels'
import type { ExportJob } from '@contract/files'
import { downloadToFolder } from '../../electron/core/files/download'
import { createAccountClient } from '../../electron/core/http/client'
import {
  filesIn,
  ledgerOf,
  startExportCore,
  tempFolder,
  waitForJob,
  type ExportSetup,
} from './exports-helpers'
import { startHttpProxy, type HttpProxy } from '../support/http-proxy'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'none' })
const MiB = 1024 * 1024
const FINAL = ['verified', 'failed', 'mismatch', 'cancelled'] as const

/** What the proxy answers to a download: the sandbox's file, or a misbehaving body. */
let mode: 'forward' | 'overLength' | 'endless' = 'forward'
/** Bytes the proxy sent of its endless body, and whether the client hung up on it. */
const endless = { sent: 0, closed: false }
let proxy: HttpProxy
let proxyUrl: string

beforeAll(async () => {
  proxy = await startHttpProxy(s.sandbox.baseUrl, {
    intercept(req, res) {
      if (mode === 'forward' || !/\/download(\?|$)/.test(req.url ?? '')) return false
      if (mode === 'overLength') {
        // Announces 16 bytes, sends 64 KiB on the raw socket, then closes.
        const body = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(64 * 1024, 'x')])
        req.socket.end(
          Buffer.concat([
            Buffer.from(
              'HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: 16\r\nConnection: close\r\n\r\n',
            ),
            body,
          ]),
        )
        return true
      }
      // No Content-Length: chunks of 64 KiB until the client hangs up (or 64 MiB at most).
      res.writeHead(200, { 'Content-Type': 'application/pdf' })
      const chunk = Buffer.alloc(64 * 1024, 'y')
      chunk.write('%PDF-1.7\n')
      res.on('close', () => (endless.closed = true))
      const pump = () => {
        while (!res.destroyed && endless.sent < 64 * MiB) {
          endless.sent += chunk.length
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
        if (!res.destroyed) res.end()
      }
      pump()
      return true
    },
  })
  proxyUrl = proxy.baseUrl
})
afterAll(() => proxy.close())

let e: ExportSetup
beforeEach(async () => {
  s.sandbox.reset()
  mode = 'forward'
  endless.sent = 0
  endless.closed = false
  e = await startExportCore({ baseUrl: proxyUrl, apiKey: s.sandbox.apiKey })
})
afterEach(() => e.t.close())

async function readyJob(resourceId: string): Promise<ExportJob> {
  const job = await e.t.ok<ExportJob>('exports.generate', {
    accountId: e.account.id,
    kind: 'report',
    resourceId,
    format: 'pdf',
  })
  return waitForJob(e.t, e.account.id, job.id, ['ready'])
}

describe('the largest-download setting', () => {
  it('defaults to 4 GiB and refuses values outside 1 MiB..64 GiB', async () => {
    const settings = await e.t.ok<Settings>('settings.get', {})
    expect(settings.maxDownloadBytes).toBe(4 * 1024 ** 3)
    const tooSmall = await e.t.call('settings.set', { maxDownloadBytes: MiB - 1 })
    expect(tooSmall).toMatchObject({ ok: false, error: { code: 'VALIDATION' } })
    const tooBig = await e.t.call('settings.set', { maxDownloadBytes: 64 * 1024 ** 3 + 1 })
    expect(tooBig).toMatchObject({ ok: false, error: { code: 'VALIDATION' } })
    const set = await e.t.ok<Settings>('settings.set', { maxDownloadBytes: 2 * MiB })
    expect(set.maxDownloadBytes).toBe(2 * MiB)
  })
})

describe('a download without Content-Length above the largest-download setting', () => {
  it('is stopped near the limit: the job says so, no file and no ledger entry', async () => {
    await e.t.ok('settings.set', { maxDownloadBytes: MiB })
    const job = await readyJob('rpt-001')
    mode = 'endless'
    await e.t.ok('exports.download', { jobId: job.id })
    const done = await waitForJob(e.t, e.account.id, job.id, [...FINAL])
    expect(done.state).toBe('failed')
    expect(done.error?.code).toBe('TOO_LARGE')
    expect(done.error?.message).toMatch(/download limit of 1\.0 MiB.*Settings/)
    await expect.poll(() => endless.closed).toBe(true)
    expect(endless.sent).toBeLessThan(16 * MiB)
    expect(filesIn(e.folder)).toEqual([])
    expect(await ledgerOf(e.t, e.account.id)).toEqual([])
    expect(done.ledgerId).toBeNull()

    mode = 'forward'
    await e.t.ok('exports.retry', { jobId: job.id })
    expect((await waitForJob(e.t, e.account.id, job.id, [...FINAL])).state).toBe('verified')
  })
})

describe('a body longer than its Content-Length', () => {
  it('is stopped: the job says so, no file and no ledger entry', async () => {
    const job = await readyJob('rpt-002')
    mode = 'overLength'
    await e.t.ok('exports.download', { jobId: job.id })
    const done = await waitForJob(e.t, e.account.id, job.id, [...FINAL])
    expect(done.state).toBe('failed')
    expect(done.error).toMatchObject({ code: 'INTEGRITY_FAILED' })
    expect(done.error?.message).toMatch(
      /more bytes than it announced \(16 bytes\).*nothing was kept/,
    )
    expect(filesIn(e.folder)).toEqual([])
    expect(await ledgerOf(e.t, e.account.id)).toEqual([])
  })
})

describe('free space, checked before the first byte', () => {
  it('refuses a declared size that does not fit, naming the folder and both sizes', async () => {
    const token = s.sandbox.sessionFor('analyst@sandbox.test')
    const client = createAccountClient({
      baseUrl: s.sandbox.baseUrl,
      apiKey: s.sandbox.apiKey,
      getAuth: () => ({ scheme: 'Bearer', token }),
      release: 'latest',
    })
    const folder = tempFolder()
    try {
      const err = await downloadToFolder({
        client,
        opId: 'reports.download',
        input: { path: { id: 'rpt-001' }, query: { format: 'pdf' } },
        folder,
        fileName: 'report.pdf',
        format: 'pdf',
        statfs: async () => ({ bavail: 1, bsize: 4096 }),
      }).catch((x: unknown) => x)
      expect(err).toMatchObject({ error: { code: 'DISK_FULL' } })
      const message = (err as { error: { message: string } }).error.message
      expect(message).toContain(folder)
      expect(message).toMatch(/the file is .* and only 4\.0 KiB is free/)
      expect(fs.readdirSync(folder)).toEqual([])
    } finally {
      client.close()
      fs.rmSync(path.join(folder), { recursive: true, force: true })
    }
  })
})
