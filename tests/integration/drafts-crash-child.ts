// Run by drafts-crash.test.ts: a core as the app builds it, on SQLite in CHILD_DATA_DIR, saving
// an SAQ draft as fast as the renderer would (one save at a time, each change adding an answer)
// and printing `ack <n>` once main has answered that save. The test kills this process with
// SIGKILL in the middle, so nothing here gets a chance to close or flush anything.
import type { Result } from '@contract/errors'
import { createCore } from '../../electron/core/index'
import { MemoryVault } from '../../electron/core/accounts/memory-vault'
import { startSandbox } from '../../sandbox/server'

const dataDir = process.env.CHILD_DATA_DIR!
const apiKey = 'crash-test-key'

async function main() {
  const sandbox = await startSandbox({ port: 0, apiKey, log: () => undefined })
  const core = await createCore({
    dataDir,
    mode: 'browser',
    version: 't',
    vault: new MemoryVault(),
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
  const answers: Record<string, unknown> = {}
  // Bounded: the parent kills the process long before the end.
  for (let n = 1; n <= 100_000; n++) {
    answers[`r${n}`] = { requirement: `r${n}`, response: 'in_place', explanation: `edit ${n}` }
    await d('drafts.save', { accountId, kind: 'saq', key: 'local-crash', data: { n, answers } })
    process.stdout.write(`ack ${n}\n`)
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`child failed: ${err instanceof Error ? err.message : String(err)}\n`)
  process.exit(1)
})
