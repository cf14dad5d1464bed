// Benchmark: ScanDesk's core start — store opened, accounts loaded, keychain read, handler table
// ready: the first accounts.list answered — with 20 signed-in accounts and a populated offline
// copy, in a fresh process (module loading counts), against a bare script in a fresh process
// doing the same SQLite opens and keychain reads, in alternating rounds of one run. Both are
// bundled as the Electron main process is (rolldown, CommonJS, dependencies from node_modules but
// those main bundles, dynamic imports split into chunks). The OS keychain is used when a Secret
// Service answers (under the bench's own service name, emptied afterwards), else a memory vault.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'rolldown'
import { operations } from '@contract/catalog/index'
import { createKeychainVault } from '../electron/core/accounts/keychain-vault'
import { MemoryVault } from '../electron/core/accounts/memory-vault'
import { ResilientVault } from '../electron/core/accounts/resilient-vault'
import { SECRET_KINDS, vaultKey, type Vault } from '../electron/core/accounts/vault'
import { createCore } from '../electron/core/index'
import { isCacheable } from '../electron/core/offline/policy'
import { MAIN_BUNDLED_DEPS } from '../electron/main/bundled-deps'
import { startSandbox, type RunningSandbox } from '../sandbox/server'
import { addBenchAccount, callChannel } from './core-call'
import { SMOKE, rounds } from './proc'
import { median, ratioLine } from './stats'
import { BENCH_KEYCHAIN_SERVICE, type StartupReport, type StartupTask } from './startup-task'

const ROUNDS = rounds(9)
const ACCOUNTS = 20
/** Cacheable reads made per account to fill the offline copy. */
const READS_PER_ACCOUNT = SMOKE ? 2 : 6
const TARGET = 1.5

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const outDir = join(root, 'out', 'bench-startup')

/** Bundles the two children as electron-vite bundles main (see electron.vite.config.ts). */
async function bundle(): Promise<{ child: string; bare: string }> {
  await build({
    input: {
      'startup-child': join(here, 'startup-child.ts'),
      'startup-bare': join(here, 'startup-bare.ts'),
    },
    platform: 'node',
    resolve: { alias: { '@contract': join(root, 'electron', 'contract') } },
    // Packages load from node_modules at run time, as in the app, except those main bundles.
    external: (id) =>
      !id.startsWith('.') &&
      !isAbsolute(id) &&
      !id.startsWith('@contract') &&
      !MAIN_BUNDLED_DEPS.some((dep) => id === dep || id.startsWith(`${dep}/`)),
    logLevel: 'silent',
    output: { dir: outDir, format: 'cjs', entryFileNames: '[name].js', cleanDir: true },
  })
  return { child: join(outDir, 'startup-child.js'), bare: join(outDir, 'startup-bare.js') }
}

/** The keychain under the bench's own name when a Secret Service answers, else null. */
async function keychain(): Promise<Vault | null> {
  const vault = await createKeychainVault({ service: BENCH_KEYCHAIN_SERVICE, timeoutMs: 3_000 })
  if ('reason' in vault) return null
  return (await vault.status()).available ? vault : null
}

/**
 * Fills `dataDir`: 20 accounts, each signed in to a sandbox of its own (one address, one
 * account), each with its offline copy. The sandboxes keep answering while the rounds run (the
 * core's start asks its services in the background, as the app does).
 */
async function populate(
  dataDir: string,
  vault: Vault,
  sandboxes: RunningSandbox[],
): Promise<{ ids: string[]; cached: number }> {
  const core = await createCore({
    dataDir,
    mode: 'electron',
    version: 'bench',
    vault,
    notificationIntervalMs: 0,
  })
  try {
    const reads = operations
      .filter((op) => isCacheable(op) && op.auth === 'user' && !op.path.includes('{'))
      .map((op) => op.id)
    const ids: string[] = []
    let cached = 0
    for (let i = 0; i < ACCOUNTS; i++) {
      const sandbox = await startSandbox({ port: 0, log: () => undefined })
      sandboxes.push(sandbox)
      const id = await addBenchAccount(core, sandbox.baseUrl, sandbox.apiKey)
      ids.push(id)
      let made = 0
      for (const op of reads) {
        if (made >= READS_PER_ACCOUNT) break
        const ok = await callChannel(core, 'api.call', { accountId: id, op, input: {} }).then(
          () => true,
          () => false,
        )
        if (ok) made++
      }
      cached += made
    }
    return { ids, cached }
  } finally {
    await core.close()
  }
}

/** Runs a bundled child in a fresh process; resolves with its report and the time to it. */
function runChild(script: string, task: StartupTask): Promise<StartupReport & { wallMs: number }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = spawn(process.execPath, [script], {
      cwd: root,
      env: { ...process.env, SCANDESK_BENCH_STARTUP: JSON.stringify(task) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    let report: (StartupReport & { wallMs: number }) | null = null
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8')
      if (report || !out.includes('\n')) return
      const wallMs = Number(process.hrtime.bigint() - start) / 1e6
      report = { ...(JSON.parse(out.slice(0, out.indexOf('\n'))) as StartupReport), wallMs }
    })
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')))
    child.once('error', reject)
    child.once('close', (code) => {
      if (code === 0 && report) resolve(report)
      else reject(new Error(`${script} failed (exit ${code}): ${err.trim().slice(-400)}`))
    })
  })
}

const ms = (values: number[]) => `${median(values).toFixed(0)} ms`

/** Runs the start-up benchmark and returns its printed lines. */
export async function benchStartup(): Promise<string[]> {
  const scripts = await bundle()
  const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-bench-startup-'))
  const secretsFile = join(dataDir, 'bench-secrets.json')
  const osKeychain = await keychain()
  const memory = new MemoryVault()
  const setupVault = osKeychain
    ? new ResilientVault({ keychain: () => Promise.resolve(osKeychain) })
    : memory
  let ids: string[] = []
  const sandboxes: RunningSandbox[] = []
  try {
    const filled = await populate(dataDir, setupVault, sandboxes)
    ids = filled.ids
    const secrets: Record<string, string> = {}
    if (!osKeychain)
      for (const id of ids)
        for (const kind of SECRET_KINDS) {
          const value = await memory.get(id, kind)
          if (value !== null) secrets[vaultKey(id, kind)] = value
        }
    writeFileSync(secretsFile, JSON.stringify(secrets), { mode: 0o600 })
    const task: StartupTask = { dataDir, vault: osKeychain ? 'keychain' : 'memory', secretsFile }

    // Warm-up (not counted): also tells which vault entries ScanDesk reads before it answers.
    const warm = await runChild(scripts.child, task)
    if (warm.accounts !== ACCOUNTS) throw new Error(`startup bench: ${warm.accounts} accounts`)
    const bareTask = { ...task, reads: warm.reads }
    await runChild(scripts.bare, bareTask)

    // Another build's child (an older tree, bundled the same way) run in the same rounds, so a
    // change is measured before and after in one run.
    const other = process.env.SCANDESK_BENCH_STARTUP_COMPARE
    const ours: (StartupReport & { wallMs: number })[] = []
    const bare: (StartupReport & { wallMs: number })[] = []
    const others: (StartupReport & { wallMs: number })[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const steps = [
        async () => void ours.push(await runChild(scripts.child, task)),
        async () => void bare.push(await runChild(scripts.bare, bareTask)),
      ]
      if (other) steps.push(async () => void others.push(await runChild(other, task)))
      if (round % 2) steps.reverse()
      for (const step of steps) await step()
    }
    const label = `start-up (fresh process to the first accounts.list answered; ${ACCOUNTS} accounts, ${filled.cached} offline copy entries, ${osKeychain ? 'OS keychain (Secret Service)' : 'memory vault: no Secret Service answered'})`
    return [
      ratioLine(
        `${label} vs a bare script opening the same stores and reading the same ${warm.reads.length} vault entries, ${ROUNDS} alternating rounds`,
        median(ours.map((r) => r.wallMs)),
        median(bare.map((r) => r.wallMs)),
        TARGET,
      ),
      `  inside ScanDesk's process (medians, ms since it started): main began ${ms(ours.map((r) => r.mainMs))} (Node and module loading), core created ${ms(ours.map((r) => r.coreMs))}, accounts.list answered ${ms(ours.map((r) => r.readyMs))}; the bare script's: began ${ms(bare.map((r) => r.mainMs))}, stores open ${ms(bare.map((r) => r.coreMs))}, read ${ms(bare.map((r) => r.readyMs))}`,
      ...(other
        ? [
            `  the compared build (${other}): ${(median(others.map((r) => r.wallMs)) / median(bare.map((r) => r.wallMs))).toFixed(2)}x (${ms(others.map((r) => r.wallMs))}; main began ${ms(others.map((r) => r.mainMs))}, accounts.list answered ${ms(others.map((r) => r.readyMs))})`,
          ]
        : []),
    ]
  } finally {
    if (osKeychain) for (const id of ids) await osKeychain.deleteAll(id).catch(() => undefined)
    await Promise.all(sandboxes.map((sandbox) => sandbox.close()))
    rmSync(dataDir, { recursive: true, force: true })
  }
}
