import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { AccountClient } from '../http/client'
import type { StreamHead, StreamSink } from '../http/stream'
import { DownloadRefused, downloadToFolder, FREE_SPACE_MARGIN } from './download'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-download-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const MiB = 1024 * 1024

/** A client whose download declares `contentLength` and then sends `chunks` (ignoring it). */
function fakeClient(
  contentLength: number | null,
  chunks: Buffer[],
): AccountClient & {
  sent: () => number
} {
  let sent = 0
  const download = async (_op: string, _input: unknown, sink: StreamSink) => {
    const head: StreamHead = { status: 200, contentLength, contentType: 'text/csv' }
    await sink.start?.(head)
    for (const chunk of chunks) {
      sent += chunk.length
      await sink.write(Buffer.from(chunk))
    }
    return { ...head, bytes: sent }
  }
  return { download, sent: () => sent } as unknown as AccountClient & { sent: () => number }
}

function folder(): string {
  return fs.mkdtempSync(path.join(dir, 'f-'))
}

const request = (client: AccountClient, target: string) => ({
  client,
  opId: 'reports.download' as const,
  input: { path: { id: 'r1' }, query: { format: 'csv' as const } },
  folder: target,
  fileName: 'report.csv',
  format: 'csv' as const,
})

describe('download size limits', () => {
  it('stops a body that sends more bytes than its Content-Length, keeping nothing', async () => {
    const target = folder()
    const client = fakeClient(10, [
      Buffer.from('a,b,c\n'),
      Buffer.from('1,2,3\n'),
      Buffer.from('x'),
    ])
    const err = await downloadToFolder(request(client, target)).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(DownloadRefused)
    expect(err).toMatchObject({ error: { code: 'INTEGRITY_FAILED' } })
    expect((err as DownloadRefused).error.message).toMatch(
      /more bytes than it announced \(10 bytes\).*nothing was kept/,
    )
    expect(client.sent()).toBe(12) // stopped at the chunk that went past, not at the end
    expect(fs.readdirSync(target)).toEqual([])
  })

  it('stops a body without Content-Length once it passes the maximum, keeping nothing', async () => {
    const target = folder()
    const chunk = Buffer.alloc(256 * 1024, 'a')
    const chunks = Array.from({ length: 64 }, () => chunk) // 16 MiB offered
    const client = fakeClient(null, chunks)
    const err = await downloadToFolder({ ...request(client, target), maxBytes: MiB }).catch(
      (e: unknown) => e,
    )
    expect(err).toMatchObject({ error: { code: 'TOO_LARGE' } })
    expect((err as DownloadRefused).error.message).toMatch(/download limit of 1\.0 MiB/)
    expect(client.sent()).toBeLessThanOrEqual(MiB + chunk.length)
    expect(fs.readdirSync(target)).toEqual([])
  })

  it('refuses a declared size above the maximum before any byte is written', async () => {
    const target = folder()
    const client = fakeClient(2 * MiB, [Buffer.from('a,b\n')])
    await expect(
      downloadToFolder({ ...request(client, target), maxBytes: MiB }),
    ).rejects.toMatchObject({
      error: { code: 'TOO_LARGE', message: expect.stringMatching(/2\.0 MiB.*1\.0 MiB/) },
    })
    expect(client.sent()).toBe(0)
    expect(fs.readdirSync(target)).toEqual([])
  })

  it('refuses a declared size that does not fit in the free space, naming folder and sizes', async () => {
    const target = folder()
    const client = fakeClient(100 * MiB, [Buffer.from('a,b\n')])
    const asked: string[] = []
    const statfs = async (f: string) => {
      asked.push(f)
      return { bavail: (120 * MiB) / 4096, bsize: 4096 } // 120 MiB free < 100 MiB + margin
    }
    const err = await downloadToFolder({ ...request(client, target), statfs }).catch(
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(DownloadRefused)
    const { code, message } = (err as DownloadRefused).error
    expect(code).toBe('DISK_FULL')
    expect(message).toContain(path.resolve(target))
    expect(message).toContain('100.0 MiB')
    expect(message).toContain('120.0 MiB')
    expect(asked).toEqual([path.resolve(target)])
    expect(client.sent()).toBe(0)
    expect(fs.readdirSync(target)).toEqual([])
  })

  it('downloads a body that fits the declared length, the maximum and the free space', async () => {
    const target = folder()
    const body = Buffer.from('a,b,c\n1,2,3\n')
    const client = fakeClient(body.length, [body])
    const statfs = async () => ({ bavail: FREE_SPACE_MARGIN / 512 + 1, bsize: 1024 })
    const result = await downloadToFolder({ ...request(client, target), maxBytes: MiB, statfs })
    expect(result.size).toBe(body.length)
    expect(fs.readdirSync(target)).toEqual(['report.csv'])
  })

  it('refuses an empty answer read on the main thread as an empty file, keeping nothing', async () => {
    const target = folder()
    const err = await downloadToFolder(request(fakeClient(0, []), target)).catch((e: unknown) => e)
    expect(err).toMatchObject({ error: { code: 'INTEGRITY_FAILED' } })
    expect((err as DownloadRefused).error.message).toMatch(/empty file/)
    expect(fs.readdirSync(target)).toEqual([])
  })
})
