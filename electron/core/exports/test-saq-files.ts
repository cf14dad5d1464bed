// The world of the SAQ files tests (saq-files.test.ts, audit-bundle.test.ts): a real SQLite
// ledger and real folders in temp, a stand-in client whose saq.show answers from `statuses` and
// `approvedAt`, and a downloader that writes the PDF and notes where. Bindings are live: read them
// after `useSaqFilesWorld()`'s beforeEach ran; change the clock and the pick answer with the setters.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { AppFailure } from '@contract/errors'
import { documentFileName, saqFileName } from '../files/names'
import { headlessHost, type HostServices } from '../host'
import type { AccountClient } from '../http/client'
import { AccountsRepo } from '../store/accounts-repo'
import { openDatabase, type Db } from '../store/database'
import { LedgerRepo } from '../store/ledger-repo'
import { SettingsRepo } from '../store/settings-repo'
import { accountRow } from '../store/test-account'
import type { FileOps } from './file-ops'
import { DownloadFolders } from './folders'
import { Library } from './library'
import { SaqFiles } from './saq-files'

export const digest = (b: string | Buffer) => createHash('sha256').update(b).digest('hex')
export let dir: string
export let folder: string
export let src: string
export let db: Db
export let ledger: LedgerRepo
export let folders: DownloadFolders
export let saq: SaqFiles
export let library: Library
export let calls: string[]
export let picked: { title: string; types?: string }[]
let pickAnswer: string | null
export let changed: string[]
export let statuses: Record<string, string>
export let approvedAt: Record<string, string | null>
let clock: Date
export let downloadedInto: { folder: string; finalExists: boolean }[]

export const client = {
  baseUrl: 'https://scan.example',
  release: 'latest',
  close: () => undefined,
  call: async (op: string, input: { path: { id: string } }) => {
    calls.push(`${op} ${input.path.id}`)
    if (op === 'saq.show')
      return {
        data: {
          id: input.path.id,
          attributes: {
            name: `SAQ ${input.path.id}`,
            saq_type: 'A',
            organization_name: 'Acme Retail',
            status: statuses[input.path.id] ?? 'approved',
            compliance: 'compliant',
            approved_at:
              input.path.id in approvedAt ? approvedAt[input.path.id] : '2025-02-01T00:00:00Z',
          },
        },
      }
    throw new Error(`unexpected ${op}`)
  },
} as unknown as AccountClient

export const files: Pick<
  FileOps,
  'downloadToFolder' | 'saqFileName' | 'documentFileName' | 'hashFile'
> = {
  downloadToFolder: async (req) => {
    calls.push(`download ${req.opId} ${req.input.path.id} ${req.input.query.format}`)
    const saqDir = path.join(folder, 'SAQ')
    downloadedInto.push({
      folder: path.relative(saqDir, req.folder),
      finalExists: fs.readdirSync(saqDir).some((n) => n.startsWith('Audit')),
    })
    const body = `%PDF-1.7 ${req.input.path.id}`
    const file = path.join(req.folder, req.fileName)
    fs.writeFileSync(file, body, { flag: 'wx' })
    return { path: file, size: body.length, sha256: digest(body) }
  },
  saqFileName,
  documentFileName,
  hashFile: async (file) => {
    const bytes = fs.readFileSync(file)
    return { sha256: digest(bytes), size: bytes.length }
  },
}

/** Sets what the next file dialog answers (null: cancelled). */
export function answerPick(file: string | null): void {
  pickAnswer = file
}

/** Sets this computer's clock for what follows. */
export function setClock(iso: string): void {
  clock = new Date(iso)
}

/** Registers the fresh world of each test and its clean-up. */
export function useSaqFilesWorld(): void {
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-saqf-'))
    folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-saqf-dl-')))
    src = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-saqf-src-')))
    db = openDatabase(dir)
    new AccountsRepo(db).insert(accountRow({ id: 'acc-1' }))
    folders = new DownloadFolders(new SettingsRepo(db))
    folders.set('acc-1', folder)
    ledger = new LedgerRepo(db)
    calls = []
    picked = []
    pickAnswer = null
    changed = []
    statuses = {}
    approvedAt = {}
    clock = new Date('2025-03-04T05:06:07Z')
    downloadedInto = []
    const host: HostServices = {
      ...headlessHost,
      pickFile: async (title, types) => {
        picked.push({ title, types })
        return pickAnswer
      },
    }
    const common = {
      ledger,
      folders,
      host,
      clientFor: async () => client,
      libraryChanged: (id: string) => void changed.push(id),
      now: () => clock,
    }
    saq = new SaqFiles({
      ...common,
      files,
      accountLabel: () => 'Acme',
      maxDownloadBytes: () => 1024 ** 3,
    })
    library = new Library({ ...common, files })
  })
  afterEach(() => {
    db.close()
    for (const d of [dir, folder, src]) fs.rmSync(d, { recursive: true, force: true })
  })
}

export function source(name: string, text: string): string {
  const file = path.join(src, name)
  fs.writeFileSync(file, text)
  return file
}

export const request = (over = {}) => ({
  accountId: 'acc-1',
  saqKey: 'draft-1',
  saqName: 'Shop SAQ',
  saqType: 'A',
  requirement: '8.3.1',
  ...over,
})

export async function appError(p: Promise<unknown>) {
  try {
    await p
  } catch (err) {
    if (err instanceof AppFailure) return err.error
    throw err
  }
  throw new Error('expected a failure')
}
