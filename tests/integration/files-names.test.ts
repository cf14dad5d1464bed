// Hostile names: used as report names AND served as Content-Disposition by a loopback server.
// The saved file always lands directly inside the chosen folder with a name valid everywhere.
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { downloadToFolder } from '../../electron/core/files/download'
import { documentFileName } from '../../electron/core/files/names'
import { createAccountClient, type AccountClient } from '../../electron/core/http/client'
import { entries, expectValidFileName, tempFolder } from './files-helpers'

const HOSTILE = [
  '../../.bashrc',
  'C:\\x.pdf',
  'CON',
  'report.pdf\u0000.exe',
  '😀'.repeat(75),
  '/etc/passwd',
  '..',
  ' . ',
  'nul.txt',
  'inv\u202Efdp.exe',
]

let server: http.Server
let client: AccountClient
let disposition = ''

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/pdf')
    res.setHeader('content-disposition', disposition)
    res.end('%PDF-1.4\n%%EOF\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  client = createAccountClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: 'names-key',
    getAuth: () => ({ scheme: 'Bearer', token: 'names-token' }),
    release: 'latest',
  })
})
afterAll(async () => {
  client.close()
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

/** A Content-Disposition header carrying `value` both ways (and disagreeing with itself). */
function hostileDisposition(value: string): string {
  const ascii = value.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(`../${value}`)}`
}

describe('saving under hostile names', () => {
  it.each(HOSTILE.map((v) => [JSON.stringify(v).slice(0, 40), v]))(
    'keeps %s inside the folder with a valid name',
    async (_label, value) => {
      const parent = tempFolder()
      const folder = path.join(parent, 'downloads')
      fs.mkdirSync(folder)
      disposition = hostileDisposition(value)
      const fileName = documentFileName({
        name: value,
        id: 'rpt-001',
        format: 'pdf',
        date: new Date('2024-05-01T00:00:00Z'),
      })
      const result = await downloadToFolder({
        client,
        opId: 'reports.download',
        input: { path: { id: 'rpt-001' }, query: { format: 'pdf' } },
        folder,
        fileName,
        format: 'pdf',
      })
      expect(path.dirname(result.path)).toBe(folder)
      expect(entries(folder)).toEqual([path.basename(result.path)])
      expect(entries(parent)).toEqual(['downloads'])
      expectValidFileName(path.basename(result.path))
      expect(result.path.endsWith(' - rpt-001 - 2024-05-01.pdf')).toBe(true)
    },
  )

  it('makes a raw hostile fileName safe too (never trusting the caller blindly)', async () => {
    const parent = tempFolder()
    const folder = path.join(parent, 'downloads')
    fs.mkdirSync(folder)
    disposition = hostileDisposition('x')
    for (const raw of ['../../escape.pdf', 'sub/dir.pdf', '..', 'COM1.pdf']) {
      const result = await downloadToFolder({
        client,
        opId: 'reports.download',
        input: { path: { id: 'rpt-001' }, query: { format: 'pdf' } },
        folder,
        fileName: raw,
        format: 'pdf',
      })
      expect(path.dirname(result.path)).toBe(folder)
      expectValidFileName(path.basename(result.path))
    }
    expect(entries(parent)).toEqual(['downloads'])
    expect(entries(folder)).toHaveLength(4)
  })
})
