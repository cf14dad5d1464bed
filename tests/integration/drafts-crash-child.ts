// Run by drafts-crash.test.ts: a core as the app builds it, on SQLite in CHILD_DATA_DIR, saving
// an SAQ draft as fast as the renderer would (one save at a time, each change adding an answer)
// and printing `ack <n>` once main has answered that save. With CHILD_MODE=cache it first
// downloads a report (a ledger row, printed as `ledger <id>`) and refreshes three lists into the
// offline copy before each save, so the kill lands during cache writes. After the first save it
// prints the account's key as the keychain holds it (`key <base64>`): the keychain outlives the
// process, so the test hands it to the next core. The test kills this process with SIGKILL in
// the middle, so nothing here gets a chance to close or flush anything.
import fs from 'node:fs'
import path from 'node:path'
import type { Result } from '@contract/errors'
import { createCore } from '../../electron/core/index'
import { MemoryVault } from '../../electron/core/accounts/memory-vault'
import { startSandbox } from '../../sandbox/server'

const dataDir = process.env.CHILD_DATA_DIR!
const refreshCache = process.env.CHILD_MODE === 'cache'
const apiKey = 'crash-test-key'

async function main() {
  const sandbox = await startSandbox({ port: 0, apiKey, log: () => undefined })
  const vault = new MemoryVault()
  const core = await createCore({
    dataDir,
    mode: 'browser',
    version: 't',
    vault,
    exportBackoff: { baseMs: 20, maxMs: 100, jitter: 0 },
  })
  const d = async <T>(channel: string, payload: unknown): Promise<T> => {
    const r = JSON.parse(await core.dispatch(channel, payload, { origin: 'browser' })) as Result<T>
    if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`)
    return r.data
  }
  const outcome = await d<{ account: { id: string } }>('accounts.add', {
    label: 'Crash test',
    baseUrl: sandbox.baseUrl,
    apiKey,
    username: 'analyst@sandbox.test',
    password: 'sandbox-password',
    release: 'latest',
    color: '#123456',
  })
  const accountId = outcome.account.id
  process.stdout.write(`account ${accountId}\n`)
  if (refreshCache) {
    // Beside the data folder (ScanDesk never saves files into its own).
    const folder = path.join(path.dirname(dataDir), 'downloads')
    fs.mkdirSync(folder)
    await d('files.setFolder', { accountId, folder })
    const job = await d<{ id: string }>('exports.generate', {
      accountId,
      kind: 'report',
      resourceId: 'rpt-001',
      format: 'pdf',
    })
    for (let i = 0; i < 500; i++) {
      const jobs = await d<{ id: string; state: string; ledgerId: string | null }[]>(
        'exports.list',
        { accountId },
      )
      const mine = jobs.find((j) => j.id === job.id)!
      if (mine.state === 'ready') await d('exports.download', { jobId: job.id })
      if (mine.state === 'verified') {
        process.stdout.write(`ledger ${mine.ledgerId}\n`)
        break
      }
      await new Promise((r) => setTimeout(r, 20))
    }
  }
  const lists = ['targets.list', 'scans.list', 'vulnerabilities.list']
  const answers: Record<string, unknown> = {}
  // Bounded: the parent kills the process long before the end.
  for (let n = 1; n <= 100_000; n++) {
    answers[`r${n}`] = { requirement: `r${n}`, response: 'in_place', explanation: `edit ${n}` }
    if (refreshCache)
      for (const op of lists)
        await d('api.call', { accountId, op, input: { query: { page: (n % 3) + 1 } } })
    await d('drafts.save', { accountId, kind: 'saq', key: 'local-crash', data: { n, answers } })
    if (n === 1) process.stdout.write(`key ${await vault.get(accountId, 'cache_key')}\n`)
    process.stdout.write(`ack ${n}\n`)
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`child failed: ${err instanceof Error ? err.message : String(err)}\n`)
  process.exit(1)
})
