// The start-up benchmark's baseline, bundled and run like startup-child.ts in a fresh process:
// the least a start needs — scandesk.db and cache.db opened as ScanDesk opens them (WAL, the same
// pragmas, the schema version read), the accounts read, and the same keychain entries read that
// ScanDesk read before its first answer. Prints one JSON line.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import Database from 'better-sqlite3'
import { BENCH_KEYCHAIN_SERVICE, type StartupReport, type StartupTask } from './startup-task'

type Keytar = { getPassword(service: string, account: string): Promise<string | null> }

function open(file: string, pragmas: string[]): Database.Database {
  const db = new Database(file)
  for (const pragma of pragmas) db.pragma(pragma)
  db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get()
  return db
}

async function main(): Promise<void> {
  const mainMs = performance.now()
  const task = JSON.parse(process.env.SCANDESK_BENCH_STARTUP ?? '') as StartupTask
  const db = open(path.join(task.dataDir, 'scandesk.db'), [
    'journal_mode = WAL',
    'foreign_keys = ON',
    'busy_timeout = 5000',
    'synchronous = NORMAL',
    'secure_delete = ON',
  ])
  const cache = open(path.join(task.dataDir, 'cache.db'), [
    'journal_mode = WAL',
    'synchronous = NORMAL',
    'busy_timeout = 5000',
  ])
  const accounts = db.prepare('SELECT * FROM accounts ORDER BY created_at, id').all()
  const coreMs = performance.now()
  const reads = task.reads ?? []
  if (task.vault === 'keychain') {
    const keytar = (await import('keytar')) as unknown as Keytar & { default?: Keytar }
    const api = keytar.default ?? keytar
    await Promise.all(reads.map((account) => api.getPassword(BENCH_KEYCHAIN_SERVICE, account)))
  } else {
    const secrets = JSON.parse(readFileSync(task.secretsFile, 'utf8')) as Record<string, string>
    for (const account of reads) void secrets[account]
  }
  const readyMs = performance.now()
  const report: StartupReport = { mainMs, coreMs, readyMs, accounts: accounts.length, reads }
  process.stdout.write(`${JSON.stringify(report)}\n`)
  cache.close()
  db.close()
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n`)
    process.exit(1)
  },
)
