// Run by crash-bulk.test.ts and crash-kills.test.ts: a core as browser mode builds it
// (crash-child-core.ts) doing one durable thing against the parent's sandbox (CHILD_BASE_URL, a
// fault proxy the parent controls), until the parent kills it with SIGKILL at the moment it chose
// (a request held unanswered, a file half written). CHILD_SCENARIO names the thing; the scenarios
// say `secrets` (the keychain, for the next start) and what they made before they wait.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {
  MAX_SAVED_VIEWS,
  savedViewsFile,
  VIEWS_FILE_FORMAT,
  type SavedView,
  type SavedViewsFile,
} from '@contract/views'
import { nodeFileOps, type WritableFile } from '../../electron/core/files/fs-ops'
import { runChild, startChildCore, untilKilled, type ChildCore } from './crash-child-core'

const env = (name: string): string => {
  const value = process.env[name]
  if (value === undefined) throw new Error(`${name} is not set`)
  return value
}

interface Row {
  id: string
  attributes: Record<string, unknown>
}

/**
 * Adds the sandbox user CHILD_USER (default the analyst) and says its account's id; a child
 * started again on the same data folder (CHILD_ACCOUNT) has it already.
 */
async function addAccount(c: ChildCore): Promise<string> {
  if (process.env.CHILD_ACCOUNT) return process.env.CHILD_ACCOUNT
  const outcome = await c.d<{ account: { id: string } }>('accounts.add', {
    label: 'Crash test',
    baseUrl: env('CHILD_BASE_URL'),
    apiKey: env('CHILD_API_KEY'),
    username: process.env.CHILD_USER ?? 'analyst@sandbox.test',
    password: 'sandbox-password',
    release: 'latest',
    color: '#123456',
  })
  c.say('account', outcome.account.id)
  return outcome.account.id
}

async function list(c: ChildCore, accountId: string, op: string, query: object): Promise<Row[]> {
  const out = await c.d<{ data: { data: Row[] } }>('api.call', { accountId, op, input: { query } })
  return out.data.data
}

/** `n` findings of page `page` (500 a page) with no open exception. */
async function freeFindings(c: ChildCore, accountId: string, page: number, n: number) {
  const open = new Set<string>()
  for (let p = 1; ; p++) {
    const batch = await list(c, accountId, 'exceptions.list', { page: p, per_page: 500 })
    for (const e of batch)
      if (e.attributes.state !== 'expired') open.add(String(e.attributes.vulnerability_id))
    if (batch.length < 500) break
  }
  const vulns = await list(c, accountId, 'vulnerabilities.list', { page, per_page: 500 })
  const free = vulns.map((v) => v.id).filter((id) => !open.has(id))
  if (free.length < n) throw new Error(`page ${page} has ${free.length} free findings`)
  return free.slice(0, n)
}

/**
 * A bulk accept of CHILD_WRITES findings of page CHILD_PAGE with reason CHILD_REASON; says the
 * run's id once it is queued (and sending) and the keychain holds the account's key.
 */
async function bulk(c: ChildCore): Promise<void> {
  const accountId = await addAccount(c)
  const ids = await freeFindings(
    c,
    accountId,
    Number(env('CHILD_PAGE')),
    Number(env('CHILD_WRITES')),
  )
  const run = await c.d<{ id: string }>('bulk.start', {
    accountId,
    action: 'exceptions.create',
    body: {
      kind: 'accepted_risk',
      reason: env('CHILD_REASON'),
      expires_at: '2099-06-30T00:00:00Z',
    },
    items: ids.map((id) => ({ id, label: `finding ${id}` })),
  })
  await c.saySecrets(accountId)
  c.say('run', run.id)
}

/**
 * Queues CHILD_MARKS notification marks (read) and a bulk accept of 5 findings while working
 * offline, says `marks <ids>` and `run <id>`, then goes back online: the outbox replays them in
 * order (the parent holds one mark in the middle).
 */
async function outbox(c: ChildCore): Promise<void> {
  const accountId = await addAccount(c)
  const unread = await list(c, accountId, 'notifications.list', { read: 'false', per_page: 25 })
  const ids = unread.slice(0, Number(env('CHILD_MARKS'))).map((n) => n.id)
  const findings = await freeFindings(c, accountId, 1, 5)
  await c.d('connectivity.setWorkOffline', { on: true })
  for (const id of ids)
    await c.d('api.call', { accountId, op: 'notifications.mark_read', input: { path: { id } } })
  const run = await c.d<{ id: string }>('bulk.start', {
    accountId,
    action: 'exceptions.create',
    body: {
      kind: 'false_positive',
      reason: env('CHILD_REASON'),
      expires_at: '2099-06-30T00:00:00Z',
    },
    items: findings.map((id) => ({ id })),
  })
  await c.saySecrets(accountId)
  c.say('marks', ids.join(','))
  c.say('run', run.id)
  await c.d('connectivity.setWorkOffline', { on: false })
}

interface Job {
  id: string
  state: string
}

/**
 * A report's PDF (CHILD_REPORT) into the download folder CHILD_FOLDER. The first start asks for
 * it (`job <id>`; the parent holds the generation request); a start again (CHILD_JOB) waits for
 * the job it resumed to be ready and downloads it (the parent holds the body halfway).
 */
async function report(c: ChildCore): Promise<void> {
  const accountId = await addAccount(c)
  const resumed = process.env.CHILD_JOB
  if (!resumed) {
    await c.d('files.setFolder', { accountId, folder: env('CHILD_FOLDER') })
    await c.saySecrets(accountId)
    const job = await c.d<Job>('exports.generate', {
      accountId,
      kind: 'report',
      resourceId: env('CHILD_REPORT'),
      format: 'pdf',
    })
    return c.say('job', job.id)
  }
  for (;;) {
    const jobs = await c.d<Job[]>('exports.list', { accountId })
    const state = jobs.find((j) => j.id === resumed)?.state
    if (state === 'ready') break
    if (state !== 'queued' && state !== 'generating') throw new Error(`the job is ${state}`)
    await new Promise((r) => setTimeout(r, 20))
  }
  await c.d('exports.download', { jobId: resumed })
  c.say('downloading', resumed)
}

interface Bundle {
  folder: string
}

/**
 * An audit bundle of the first approved SAQ, with one evidence file (said as `bundle <folder>`),
 * then a second of the first two approved SAQs (the parent holds the second's PDF halfway).
 */
async function bundle(c: ChildCore): Promise<void> {
  const accountId = await addAccount(c)
  const folder = env('CHILD_FOLDER')
  await c.d('files.setFolder', { accountId, folder })
  const approved = await list(c, accountId, 'saq.list', { status: 'approved' })
  const source = path.join(env('CHILD_HOME'), 'firewall-policy.txt')
  fs.writeFileSync(source, 'deny all inbound\n')
  await c.d('saq.evidence.attach', {
    accountId,
    saqKey: approved[0].id,
    saqName: String(approved[0].attributes.name),
    saqType: String(approved[0].attributes.saq_type),
    saqStatus: 'approved',
    requirement: '1.2.1',
    path: source,
  })
  const first = await c.d<Bundle>('saq.auditBundle', { accountId, saqIds: [approved[0].id] })
  await c.saySecrets(accountId)
  c.say('bundle', first.folder)
  await c.d('saq.auditBundle', { accountId, saqIds: [approved[0].id, approved[1].id] })
}

/** A views file as `views.export` writes it: `count` views named `<prefix> <i>`. */
function viewsFile(prefix: string, count: number): SavedViewsFile {
  return {
    format: VIEWS_FILE_FORMAT,
    version: 1,
    views: Array.from({ length: count }, (_, i) => ({
      name: `${prefix} ${i + 1}`,
      resource: 'vulnerabilities',
      query: { severity: ['critical', 'high', 'medium', 'low'][i % 4], q: `${prefix} ${i + 1}` },
      isDefault: false,
    })),
  }
}

/**
 * Saves CHILD_VIEWS views of its own (`ack 0`), then imports files of CHILD_IMPORT new views one
 * after another as the renderer's store does (views.import reads the file, checked against the
 * views file schema; the stored views plus the file's, with new ids `import-<n>-<i>`, saved as one
 * draft: what the store's mergeImported makes of views not saved yet), saying `ack <n>` after
 * each, until it is killed.
 */
async function views(c: ChildCore): Promise<void> {
  const accountId = await addAccount(c)
  const own = viewsFile('Own', Number(env('CHILD_VIEWS'))).views.map((v, i) => ({
    ...v,
    id: `own-${i + 1}`,
  }))
  const save = (list: SavedView[]) =>
    c.d('drafts.save', { accountId, kind: 'saved-views', key: '', data: { views: list } })
  await save(own)
  await c.saySecrets(accountId)
  c.say('ack', 0)
  const file = path.join(env('CHILD_HOME'), 'views.json')
  let stored: SavedView[] = own
  for (let n = 1; stored.length + Number(env('CHILD_IMPORT')) <= MAX_SAVED_VIEWS; n++) {
    fs.writeFileSync(file, JSON.stringify(viewsFile(`Import ${n}`, Number(env('CHILD_IMPORT')))))
    const read = await c.d<{ text: string }>('views.import', { accountId, path: file })
    const imported = savedViewsFile.parse(JSON.parse(read.text)).views
    stored = [...stored, ...imported.map((v, i) => ({ ...v, id: `import-${n}-${i + 1}` }))]
    await save(stored)
    c.say('ack', n)
  }
  throw new Error('the imports reached the cap before the kill')
}

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex')

/**
 * Makes the write of a temp file named for `name` stop halfway through its first write, once
 * the half is on disk (`temp <path>`): the moment the parent kills the process. The file layer
 * every atomic write goes through (nodeFileOps), changed in this child process only.
 */
function stopWritesOf(c: ChildCore, name: string): void {
  const open = nodeFileOps.open
  nodeFileOps.open = async (p, flags, mode) => {
    const file = await open(p, flags, mode)
    if (!path.basename(p).startsWith(`.${name}.`) || !p.endsWith('.partial')) return file
    return {
      fd: file.fd,
      async write(buffer, offset, length) {
        await file.write(buffer, offset, Math.ceil(length / 2))
        await file.datasync()
        c.say('temp', p)
        return untilKilled()
      },
      datasync: () => file.datasync(),
      sync: () => file.sync(),
      close: () => file.close(),
    } satisfies WritableFile
  }
}

/**
 * Exports the audit log as CSV to CHILD_HOME/audit.csv (`saved <sha256>`), then again over it
 * (replace), the second write stopped halfway (`temp <path>`).
 */
async function csv(c: ChildCore): Promise<void> {
  const accountId = await addAccount(c)
  const target = path.join(env('CHILD_HOME'), 'audit.csv')
  const query = { sort: '-occurred_at' }
  await c.d('csv.export', { accountId, op: 'audit.list', query, path: target })
  await c.saySecrets(accountId)
  c.say('saved', sha256(target))
  stopWritesOf(c, 'audit.csv')
  await c.d('csv.export', { accountId, op: 'audit.list', query, path: target, replace: true })
  throw new Error('the second export was not stopped')
}

const SCENARIOS: Record<string, (c: ChildCore) => Promise<void>> = {
  bulk,
  outbox,
  report,
  bundle,
  views,
  csv,
}

runChild(async () => {
  const scenario = SCENARIOS[env('CHILD_SCENARIO')]
  if (!scenario) throw new Error(`no scenario ${process.env.CHILD_SCENARIO}`)
  await scenario(await startChildCore())
  await untilKilled()
})
