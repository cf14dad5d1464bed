// Download faults the sandbox cannot produce, served by tiny loopback servers: a body longer or
// shorter than its Content-Length, an empty body, a web page instead of a PDF, drips, redirects,
// and a disk that is full or refuses writes (an injected file system layer).
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TransferProgress } from '@contract/files'
import { downloadToFolder, type DownloadRequest } from '../../electron/core/files/download'
import { nodeFileOps, type FileOps } from '../../electron/core/files/fs-ops'
import { createAccountClient, type AccountClient } from '../../electron/core/http/client'
import { entries, failure, tempFolder } from './files-helpers'

const CANARY = 'files-canary-5e1d'
type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void
let route: Route
let server: http.Server
let client: AccountClient
let seenHeaders: http.IncomingHttpHeaders = {}

const BIG = randomBytes(12 * 1024 * 1024 + 333)
BIG.write('%PDF-1.7\n', 'latin1')

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seenHeaders = req.headers
    route(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  client = createAccountClient({
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: `key-${CANARY}`,
    getAuth: () => ({ scheme: 'Bearer', token: `tok-${CANARY}` }),
    release: 'latest',
  })
})
afterAll(async () => {
  client.close()
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

function request(folder: string, over: Partial<DownloadRequest> = {}): DownloadRequest {
  return {
    client,
    opId: 'reports.download',
    input: { path: { id: 'rpt-001' }, query: { format: 'pdf' } },
    folder,
    fileName: 'Quarterly - rpt-001 - 2024-05-01.pdf',
    format: 'pdf',
    ...over,
  }
}

function pdf(res: http.ServerResponse, body: Buffer, headers: Record<string, string> = {}) {
  res.writeHead(200, {
    'content-type': 'application/pdf',
    'content-length': String(body.length),
    ...headers,
  })
  res.end(body)
}

/** Failing download: returns the error after checking the folder holds nothing and no secret leaked. */
async function failed(folder: string, over: Partial<DownloadRequest> = {}) {
  const error = await failure(downloadToFolder(request(folder, over)))
  expect(entries(folder)).toEqual([])
  expect(JSON.stringify(error)).not.toContain(CANARY)
  return error
}

describe('a large download from a plain HTTP server', () => {
  it('hashes on the worker, sends the credentials, and reports throttled progress', async () => {
    route = (_req, res) => pdf(res, BIG)
    const folder = tempFolder()
    const progress: TransferProgress[] = []
    const result = await downloadToFolder(request(folder, { onProgress: (p) => progress.push(p) }))
    expect(result.sha256).toBe(createHash('sha256').update(BIG).digest('hex'))
    expect(result.size).toBe(BIG.length)
    expect(fs.readFileSync(result.path).equals(BIG)).toBe(true)
    expect(seenHeaders['x-api-key']).toBe(`key-${CANARY}`)
    expect(seenHeaders.authorization).toBe(`Bearer tok-${CANARY}`)
    expect((fs.statSync(result.path).mode & 0o777).toString(8)).toBe('600')
    const last = progress.at(-1) as TransferProgress
    expect(last).toMatchObject({ bytes: BIG.length, total: BIG.length, etaMs: 0 })
    expect(progress.every((p, i) => i === 0 || p.bytes >= progress[i - 1].bytes)).toBe(true)
  })

  it('accepts a chunked body without Content-Length', async () => {
    route = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' })
      res.write(BIG.subarray(0, 1000))
      res.end(BIG.subarray(1000, 3_000_000))
    }
    const folder = tempFolder()
    const result = await downloadToFolder(request(folder))
    expect(result.size).toBe(3_000_000)
    expect(result.sha256).toBe(
      createHash('sha256').update(BIG.subarray(0, 3_000_000)).digest('hex'),
    )
  })
})

describe('bodies that do not match what was announced', () => {
  it('Content-Length larger than the body (connection closed early) is INTEGRITY_FAILED', async () => {
    route = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '20000' })
      res.write(BIG.subarray(0, 8000), () => res.socket?.destroy())
    }
    const error = await failed(tempFolder())
    expect(error.code).toBe('INTEGRITY_FAILED')
    expect(error.message).toMatch(/incomplete/)
  })

  it('Content-Length smaller than the body is INTEGRITY_FAILED', async () => {
    const raw = net.createServer((socket) => {
      socket.once('data', () => {
        const body = BIG.subarray(0, 4000)
        socket.end(
          Buffer.concat([
            Buffer.from(
              'HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: 1500\r\n\r\n',
            ),
            body,
          ]),
        )
      })
    })
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve))
    const rawClient = createAccountClient({
      baseUrl: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`,
      apiKey: 'k',
      getAuth: () => ({ scheme: 'Bearer', token: 't' }),
      release: 'latest',
    })
    try {
      const folder = tempFolder()
      const error = await failure(downloadToFolder(request(folder, { client: rawClient })))
      expect(error.code).toBe('INTEGRITY_FAILED')
      expect(error.message).toMatch(/more bytes than it announced/)
      expect(entries(folder)).toEqual([])
    } finally {
      rawClient.close()
      await new Promise<void>((resolve) => raw.close(() => resolve()))
    }
  })

  it('an empty body is refused', async () => {
    route = (_req, res) => pdf(res, Buffer.alloc(0))
    const error = await failed(tempFolder())
    expect(error.code).toBe('INTEGRITY_FAILED')
    expect(error.message).toMatch(/empty/)
  })

  it('a web page served as the PDF is refused with a message naming %PDF-', async () => {
    route = (_req, res) => pdf(res, Buffer.from('<html><body>Please log in</body></html>'))
    const error = await failed(tempFolder())
    expect(error.code).toBe('INTEGRITY_FAILED')
    expect(error.message).toContain('%PDF-')
  })

  it('a CSV is not held to the PDF signature', async () => {
    route = (_req, res) => pdf(res, Buffer.from('id,name\r\n1,Web\r\n'))
    const folder = tempFolder()
    const result = await downloadToFolder(
      request(folder, {
        format: 'csv',
        fileName: 'Quarterly.csv',
        input: { path: { id: 'rpt-001' }, query: { format: 'csv' } },
      }),
    )
    expect(fs.readFileSync(result.path, 'utf8')).toBe('id,name\r\n1,Web\r\n')
  })
})

describe('slow, refused and redirected answers', () => {
  it('one byte every few hundred ms trips the idle timeout: TIMEOUT', async () => {
    route = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '100' })
      res.write('%PDF-')
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('x')), 300)
      res.on('close', () => clearInterval(timer))
    }
    const error = await failed(tempFolder(), { idleMs: 120 })
    expect(error.code).toBe('TIMEOUT')
  })

  it('a steady drip that would take too long trips the total deadline: TIMEOUT', async () => {
    route = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '100000' })
      res.write('%PDF-')
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('x')), 10)
      res.on('close', () => clearInterval(timer))
    }
    const error = await failed(tempFolder(), { deadlineMs: 250, idleMs: 5_000 })
    expect(error.code).toBe('TIMEOUT')
  })

  it('a 401 is UNAUTHORIZED, and the service’s words are redacted', async () => {
    route = (_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: `token tok-${CANARY} expired` }))
    }
    const error = await failed(tempFolder())
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
  })

  it('a redirect is refused and not followed', async () => {
    route = (_req, res) => res.writeHead(302, { location: 'http://example.invalid/x.pdf' }).end()
    const error = await failed(tempFolder())
    expect(error.code).toBe('REDIRECT_REFUSED')
  })

  it('a missing folder is NO_FOLDER', async () => {
    route = (_req, res) => pdf(res, BIG.subarray(0, 1000))
    const folder = path.join(tempFolder(), 'gone')
    const error = await failure(downloadToFolder(request(folder)))
    expect(error.code).toBe('NO_FOLDER')
  })
})

/** A file system whose writes fail with `code` once `after` bytes were written. */
function failingWrites(code: string, after: number): FileOps {
  return {
    ...nodeFileOps,
    async open(p, flags, mode) {
      const file = await nodeFileOps.open(p, flags, mode)
      let written = 0
      return {
        ...file,
        write: async (buffer, offset, length) => {
          if (written + length > after)
            throw Object.assign(new Error(`${code}: injected`), { code })
          written += length
          return file.write(buffer, offset, length)
        },
        datasync: () => file.datasync(),
        sync: () => file.sync(),
        close: () => file.close(),
      }
    },
  }
}

describe('the disk refusing the file', () => {
  it('a full disk mid-way is DISK_FULL and the temp file is removed', async () => {
    route = (_req, res) => pdf(res, BIG)
    const error = await failed(tempFolder(), { fileOps: failingWrites('ENOSPC', 3 * 1024 * 1024) })
    expect(error.code).toBe('DISK_FULL')
    expect(error.message).toMatch(/full/)
  })

  it('a folder that refuses new files is PERMISSION_DENIED', async () => {
    route = (_req, res) => pdf(res, BIG.subarray(0, 5000))
    const ops: FileOps = {
      ...nodeFileOps,
      open: async () => {
        throw Object.assign(new Error('EACCES: injected'), { code: 'EACCES' })
      },
    }
    const error = await failed(tempFolder(), { fileOps: ops })
    expect(error.code).toBe('PERMISSION_DENIED')
  })

  it('a refused final rename is PERMISSION_DENIED and removes the temp file', async () => {
    route = (_req, res) => pdf(res, BIG.subarray(0, 5000))
    const ops: FileOps = {
      ...nodeFileOps,
      link: async () => {
        throw Object.assign(new Error('EACCES: injected'), { code: 'EACCES' })
      },
    }
    const error = await failed(tempFolder(), { fileOps: ops })
    expect(error.code).toBe('PERMISSION_DENIED')
  })

  it('write errors on a small (main-thread hashed) body are mapped too', async () => {
    route = (_req, res) => pdf(res, BIG.subarray(0, 2 * 1024 * 1024))
    const error = await failed(tempFolder(), { fileOps: failingWrites('EPERM', 1024) })
    expect(error.code).toBe('PERMISSION_DENIED')
  })
})
