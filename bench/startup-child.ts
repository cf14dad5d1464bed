// Child process of the start-up benchmark, bundled as the Electron main process is (rolldown,
// CommonJS, dependencies from node_modules) and run in a fresh process: ScanDesk's core start as
// main makes it (startCore) — store opened, accounts loaded, keychain read, handler table ready —
// until the first accounts.list is answered. Prints one JSON line, then closes the core.
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import {
  loadKeytar,
  createKeychainVault,
  type KeytarApi,
} from '../electron/core/accounts/keychain-vault'
import { MemoryVault } from '../electron/core/accounts/memory-vault'
import { ResilientVault } from '../electron/core/accounts/resilient-vault'
import { vaultKey, type SecretKind, type Vault } from '../electron/core/accounts/vault'
import { startCore } from '../electron/core/start'
import { BENCH_KEYCHAIN_SERVICE, type StartupReport, type StartupTask } from './startup-task'

/** The vault the app would use, recording what is read until the first answer. */
async function benchVault(task: StartupTask, reads: string[]): Promise<Vault> {
  if (task.vault === 'keychain') {
    // As startCore builds it (tombstones aside), the keychain under the bench's own name.
    const loaded = await loadKeytar()
    if ('reason' in loaded) throw new Error(`keytar does not load: ${loaded.reason}`)
    const real = loaded.keytar
    const keytar: KeytarApi = {
      getPassword: (service, account) => {
        reads.push(account)
        return real.getPassword(service, account)
      },
      setPassword: (s, a, p) => real.setPassword(s, a, p),
      deletePassword: (s, a) => real.deletePassword(s, a),
    }
    return new ResilientVault({
      keychain: () => createKeychainVault({ service: BENCH_KEYCHAIN_SERVICE, keytar }),
    })
  }
  const vault = new MemoryVault()
  const secrets = JSON.parse(readFileSync(task.secretsFile, 'utf8')) as Record<string, string>
  for (const [name, value] of Object.entries(secrets)) {
    const at = name.lastIndexOf(':')
    await vault.set(name.slice(0, at), name.slice(at + 1) as SecretKind, value)
  }
  const get = vault.get.bind(vault)
  vault.get = (accountId, kind) => {
    reads.push(vaultKey(accountId, kind))
    return get(accountId, kind)
  }
  return vault
}

async function main(): Promise<void> {
  const mainMs = performance.now()
  const task = JSON.parse(process.env.SCANDESK_BENCH_STARTUP ?? '') as StartupTask
  const reads: string[] = []
  const vault = await benchVault(task, reads)
  const core = await startCore({
    dataDir: task.dataDir,
    mode: 'electron',
    version: 'bench',
    vault,
    log: () => undefined,
  })
  const coreMs = performance.now()
  const text = await core.dispatch('accounts.list', {}, { origin: 'electron' })
  const readyMs = performance.now()
  const answer = JSON.parse(text) as { ok: boolean; data?: { accounts: unknown[] } }
  if (!answer.ok || !answer.data) throw new Error(`accounts.list failed: ${text.slice(0, 200)}`)
  const report: StartupReport = {
    mainMs,
    coreMs,
    readyMs,
    accounts: answer.data.accounts.length,
    reads: [...reads],
  }
  process.stdout.write(`${JSON.stringify(report)}\n`)
  await core.close()
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n`)
    process.exit(1)
  },
)
