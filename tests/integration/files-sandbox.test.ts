// Downloads from the real sandbox over HTTP into real folders: the hash matches the service's,
// and every fault it can produce ends with a typed error and no file left behind.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TransferProgress } from '@contract/files'
import { downloadToFolder, type DownloadRequest } from '../../electron/core/files/download'
import { documentFileName } from '../../electron/core/files/names'
import { createAccountClient, type AccountClient } from '../../electron/core/http/client'
import { entries, failure, tempFolder } from './files-helpers'
import { useSandboxAndCore } from './fixture'

interface FileState {
  status: string
  size?: number
  sha256?: string
}
interface ReportRow {
  id: string
  attributes: { name: string; files?: Record<string, FileState> }
}

const s = useSandboxAndCore({ each: 'none' })
let client: AccountClient
let report: ReportRow

beforeAll(async () => {
  const token = s.sandbox.sessionFor('analyst@sandbox.test')
  client = createAccountClient({
    baseUrl: s.sandbox.baseUrl,
    apiKey: s.sandbox.apiKey,
    getAuth: () => ({ scheme: 'Bearer', token }),
    release: 'latest',
  })
  const list = (await client.call('reports.list', { query: { per_page: 100 } })) as {
    data: ReportRow[]
  }
  const ready = list.data.find(
    (r) =>
      r.attributes.files?.pdf?.status === 'ready' && r.attributes.files?.csv?.status === 'ready',
  )
  if (!ready) throw new Error('the seed has no report with both files ready')
  const shown = (await client.call('reports.show', { path: { id: ready.id } })) as {
    data: ReportRow
  }
  report = shown.data
})
afterAll(() => client.close())
afterEach(() =>
  s.sandbox.setFaults({
    corruptDownloads: false,
    dropMidBody: false,
    slowDripMs: 0,
    unauthorizedAfter: 0,
  }),
)

function request(folder: string, over: Partial<DownloadRequest> = {}): DownloadRequest {
  const format = over.format ?? 'pdf'
  return {
    client,
    opId: 'reports.download',
    input: { path: { id: report.id }, query: { format } },
    folder,
    fileName: documentFileName({
      name: report.attributes.name,
      id: report.id,
      format,
      date: new Date('2024-05-01T10:00:00Z'),
    }),
    format,
    ...over,
  }
}

describe('downloading a report from the sandbox', () => {
  it('saves the PDF under our name with the SHA-256 the service recorded', async () => {
    const folder = tempFolder()
    const progress: TransferProgress[] = []
    const result = await downloadToFolder(request(folder, { onProgress: (p) => progress.push(p) }))
    const pdf = report.attributes.files?.pdf as FileState
    expect(result.sha256).toBe(pdf.sha256)
    expect(result.size).toBe(pdf.size)
    expect(path.dirname(result.path)).toBe(folder)
    expect(entries(folder)).toEqual([path.basename(result.path)])
    expect(path.basename(result.path)).toBe(request(folder).fileName)
    const bytes = fs.readFileSync(result.path)
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(bytes.length).toBe(result.size)
    expect(progress.at(-1)).toMatchObject({ bytes: result.size, total: result.size, etaMs: 0 })
  })

  it('saves the CSV of the same report with its own recorded hash', async () => {
    const folder = tempFolder()
    const result = await downloadToFolder(request(folder, { format: 'csv' }))
    expect(result.sha256).toBe(report.attributes.files?.csv?.sha256)
    expect(result.path.endsWith('.csv')).toBe(true)
  })

  it('never overwrites: a second download of the same name lands as "name (2).pdf"', async () => {
    const folder = tempFolder()
    const first = await downloadToFolder(request(folder))
    fs.writeFileSync(first.path, 'the user edited this copy')
    const second = await downloadToFolder(request(folder))
    expect(second.path).toBe(first.path.replace(/\.pdf$/, ' (2).pdf'))
    expect(fs.readFileSync(first.path, 'utf8')).toBe('the user edited this copy')
    const third = await downloadToFolder(request(folder))
    expect(path.basename(third.path)).toMatch(/ \(3\)\.pdf$/)
    expect(entries(folder)).toHaveLength(3)
  })
})

describe('faults of the sandbox', () => {
  it('corrupted CSV bytes still download, but their hash differs from the service’s', async () => {
    s.sandbox.setFaults({ corruptDownloads: true })
    const folder = tempFolder()
    const result = await downloadToFolder(request(folder, { format: 'csv' }))
    expect(result.size).toBe(report.attributes.files?.csv?.size)
    expect(result.sha256).not.toBe(report.attributes.files?.csv?.sha256)
  })

  it('a corrupted PDF keeps its %PDF- header, downloads whole, and its hash differs', async () => {
    s.sandbox.setFaults({ corruptDownloads: true })
    const folder = tempFolder()
    const result = await downloadToFolder(request(folder))
    expect(result.size).toBe(report.attributes.files?.pdf?.size)
    expect(fs.readFileSync(result.path).subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(result.sha256).not.toBe(report.attributes.files?.pdf?.sha256)
  })

  it('a connection dropped half-way is INTEGRITY_FAILED and leaves nothing', async () => {
    s.sandbox.setFaults({ dropMidBody: true })
    const folder = tempFolder()
    const error = await failure(downloadToFolder(request(folder)))
    expect(error.code).toBe('INTEGRITY_FAILED')
    expect(error.message).toMatch(/incomplete/)
    expect(entries(folder)).toEqual([])
  })

  it('a service that drips slower than the idle timeout is TIMEOUT and leaves nothing', async () => {
    s.sandbox.setFaults({ slowDripMs: 400 })
    const folder = tempFolder()
    const error = await failure(downloadToFolder(request(folder, { idleMs: 150 })))
    expect(error.code).toBe('TIMEOUT')
    expect(entries(folder)).toEqual([])
  })

  it('a 401 (the session ended) is UNAUTHORIZED; after re-auth a retry from the start succeeds', async () => {
    s.sandbox.setFaults({ unauthorizedAfter: 1 })
    await client.call('reports.show', { path: { id: report.id } })
    const folder = tempFolder()
    const error = await failure(downloadToFolder(request(folder)))
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
    expect(entries(folder)).toEqual([])
    s.sandbox.setFaults({ unauthorizedAfter: 0 })
    const result = await downloadToFolder(request(folder))
    expect(result.sha256).toBe(report.attributes.files?.pdf?.sha256)
    expect(entries(folder)).toEqual([path.basename(result.path)])
  })

  it('cancelling mid-way is CANCELLED and removes the partial file', async () => {
    s.sandbox.setFaults({ slowDripMs: 30 })
    const folder = tempFolder()
    const controller = new AbortController()
    let seen = 0
    const error = await failure(
      downloadToFolder(
        request(folder, {
          signal: controller.signal,
          onProgress: (p) => {
            seen = p.bytes
            if (p.bytes > 0) controller.abort()
          },
        }),
      ),
    )
    expect(error.code).toBe('CANCELLED')
    expect(seen).toBeGreaterThan(0)
    expect(seen).toBeLessThan(report.attributes.files?.pdf?.size ?? 0)
    expect(entries(folder)).toEqual([])
  })
})
