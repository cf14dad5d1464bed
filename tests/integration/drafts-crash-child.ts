// Run by drafts-crash.test.ts: a core as the app builds it (crash-child-core.ts), saving an SAQ
// draft as fast as the renderer would (one save at a time, each change adding an answer) and
// saying `ack <n>` once main has answered that save. With CHILD_MODE=cache it first downloads a
// report (a ledger row, said as `ledger <id>`) and refreshes three lists into the offline copy
// before each save, so the kill lands during cache writes. After the first save it says the
// account's keychain entries (`secrets`): the keychain outlives the process, so the test hands
// them to the next core. Its sandbox is its own (the drafts test counts no requests).
import fs from 'node:fs'
import path from 'node:path'
import { startSandbox } from '../../sandbox/server'
import { runChild, startChildCore } from './crash-child-core'

const dataDir = process.env.CHILD_DATA_DIR!
const refreshCache = process.env.CHILD_MODE === 'cache'
const apiKey = 'crash-test-key'

runChild(async () => {
  const sandbox = await startSandbox({ port: 0, apiKey, log: () => undefined })
  const { d, say, saySecrets } = await startChildCore()
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
  say('account', accountId)
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
        say('ledger', mine.ledgerId ?? '')
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
    if (n === 1) await saySecrets(accountId)
    say('ack', n)
  }
})
