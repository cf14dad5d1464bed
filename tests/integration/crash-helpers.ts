// The parent's half of the crash tests (drafts-crash, crash-bulk, crash-kills): a child process
// running a core (tests/integration/*-child.ts), told what to do through its environment and
// telling the test what it did in `<word> <value>` lines on stdout; killed with SIGKILL at the
// moment the test chose; and the keychain as it is after the crash, for the next core on the same
// data folder. The child's half is crash-child-core.ts.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { MemoryVault } from '../../electron/core/accounts/memory-vault'
import type { SecretKind } from '../../electron/core/accounts/vault'

/** What a child said of one account's keychain entries (its `secrets` line). */
export interface ChildSecrets {
  accountId: string
  secrets: Partial<Record<SecretKind, string>>
}

/** A running child core. */
export interface CrashChild {
  /** Every value the child said with `word`, in order. */
  said(word: string): string[]
  /** The last `secrets` line: the account's keychain entries as the child's keychain held them. */
  secrets(): ChildSecrets
  /**
   * Resolves once a line makes `until(word, value)` true (with that value); rejects when the
   * child ends first (with what it wrote on stderr) or after `ms`.
   */
  waitFor(
    until: (word: string, value: string) => boolean,
    what: string,
    ms?: number,
  ): Promise<string>
  /** Kills the child's whole process group with SIGKILL; resolves once it is gone. */
  kill(): Promise<void>
  /** Resolves when the child ends by itself with code 0 (rejects otherwise). */
  ended(): Promise<void>
}

/**
 * Starts `script` as a child core with `env` (CHILD_DATA_DIR and the scenario's own). The child
 * is `node --import tsx` itself (the tsx command line would start a second node under it, which a
 * SIGKILL of the first would leave running), and it leads its own process group, the whole group
 * killed. A child still running after 90 s is killed (a test that hangs fails, not the suite).
 */
export function spawnCrashChild(script: string, env: Record<string, string>): CrashChild {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.node.json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  const lines: { word: string; value: string }[] = []
  const waiters = new Set<() => void>()
  let out = ''
  let err = ''
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null
  const gone = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exit = { code, signal }
      clearTimeout(timer)
      for (const w of waiters) w()
      resolve()
    }),
  )
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      child.kill('SIGKILL')
    }
  }
  const timer = setTimeout(killGroup, 90_000)
  child.stderr.on('data', (b: Buffer) => (err += b.toString()))
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString()
    const parts = out.split('\n')
    out = parts.pop() ?? ''
    for (const line of parts) {
      const space = line.indexOf(' ')
      lines.push(
        space < 0
          ? { word: line, value: '' }
          : { word: line.slice(0, space), value: line.slice(space + 1) },
      )
    }
    for (const w of waiters) w()
  })
  const ending = () => `child ended with ${exit?.code ?? exit?.signal}: ${err}`
  return {
    said: (word) => lines.filter((l) => l.word === word).map((l) => l.value),
    secrets() {
      const last = lines.filter((l) => l.word === 'secrets').at(-1)
      if (!last) throw new Error(`the child said no secrets: ${err}`)
      return JSON.parse(last.value) as ChildSecrets
    },
    waitFor(until, what, ms = 60_000) {
      return new Promise((resolve, reject) => {
        let seen = 0
        const check = () => {
          for (; seen < lines.length; seen++)
            if (until(lines[seen].word, lines[seen].value)) return finish(lines[seen].value)
          if (exit) finish(null, new Error(`waiting for ${what}: ${ending()}`))
        }
        const stop = setTimeout(() => finish(null, new Error(`timed out waiting for ${what}`)), ms)
        const finish = (value: string | null, error?: Error) => {
          clearTimeout(stop)
          waiters.delete(check)
          if (error) reject(error)
          else resolve(value!)
        }
        waiters.add(check)
        check()
      })
    },
    async kill() {
      if (exit) throw new Error(`the child was not running: ${ending()}`)
      killGroup()
      await gone
      if (exit!.signal !== 'SIGKILL') throw new Error(ending())
    },
    async ended() {
      await gone
      if (exit!.code !== 0) throw new Error(ending())
    },
  }
}

/** The next start's vault: the keychain still holds what the child's keychain held. */
export async function keychainAfterCrash(held: ChildSecrets): Promise<MemoryVault> {
  const vault = new MemoryVault()
  for (const [kind, value] of Object.entries(held.secrets))
    await vault.set(held.accountId, kind as SecretKind, value)
  return vault
}

/** A fresh temporary root with `data` (the data folder) and `home` (the user's folder). */
export function crashRoot(prefix = 'scandesk-crash-'): {
  root: string
  dataDir: string
  home: string
  remove(): void
} {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  const dataDir = path.join(root, 'data')
  const home = path.join(root, 'home')
  fs.mkdirSync(dataDir)
  fs.mkdirSync(home)
  return { root, dataDir, home, remove: () => fs.rmSync(root, { recursive: true, force: true }) }
}

/**
 * Resolves once `check` holds, looking again at every turn of the event loop's timers (a wait
 * for what the test means, never a fixed sleep); throws after `ms`.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 60_000,
): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/**
 * Waits for `held` (a request the fault proxy holds for the child); rejects when the child ends
 * first, with what it wrote on stderr (a scenario that failed never leaves the test waiting).
 */
export function heldFor<T>(child: CrashChild, held: Promise<T>): Promise<T> {
  return Promise.race([
    held,
    child.ended().then(() => Promise.reject(new Error('the child ended before the hold'))),
  ])
}
