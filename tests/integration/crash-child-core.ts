// The child's half of the crash tests (see crash-helpers.ts): a core as browser mode builds it, on
// SQLite in CHILD_DATA_DIR, its keychain a memory vault that starts with what CHILD_SECRETS holds
// (the keychain outlives a killed process: a child started again gets it back), and lines that
// tell the parent what happened. The parent kills the process with SIGKILL in the middle, so
// nothing here gets a chance to close or flush anything.
import type { Result } from '@contract/errors'
import { MemoryVault } from '../../electron/core/accounts/memory-vault'
import { SECRET_KINDS, type SecretKind } from '../../electron/core/accounts/vault'
import { createCore, type Core, type CoreOptions } from '../../electron/core/index'
import type { ChildSecrets } from './crash-helpers'

/** A core in a child process, with the means to tell the parent what it did. */
export interface ChildCore {
  core: Core
  vault: MemoryVault
  /** Dispatches as the page would (origin browser); throws on an error answer. */
  d<T>(channel: string, payload: unknown): Promise<T>
  /** Tells the parent: one `<word> <value>` line on stdout. */
  say(word: string, value?: string | number): void
  /** Tells the parent the account's keychain entries (`secrets <json>`). */
  saySecrets(accountId: string): Promise<void>
}

/** Starts the child's core (browser mode, short poll and retry waits) with `options` over it. */
export async function startChildCore(options: Partial<CoreOptions> = {}): Promise<ChildCore> {
  const vault = new MemoryVault()
  const kept = process.env.CHILD_SECRETS
  if (kept) {
    const held = JSON.parse(kept) as ChildSecrets
    for (const [kind, value] of Object.entries(held.secrets))
      await vault.set(held.accountId, kind as SecretKind, value)
  }
  const core = await createCore({
    dataDir: process.env.CHILD_DATA_DIR!,
    mode: 'browser',
    version: 't',
    vault,
    exportBackoff: { baseMs: 20, maxMs: 100, jitter: 0 },
    httpLimits: { backoffBaseMs: 20, backoffMaxMs: 100 },
    notificationIntervalMs: 0,
    ...options,
  })
  const say = (word: string, value?: string | number) =>
    void process.stdout.write(value === undefined ? `${word}\n` : `${word} ${value}\n`)
  return {
    core,
    vault,
    say,
    async d<T>(channel: string, payload: unknown): Promise<T> {
      const text = await core.dispatch(channel, payload, { origin: 'browser' })
      const r = JSON.parse(text) as Result<T>
      if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`)
      return r.data
    },
    async saySecrets(accountId: string) {
      const secrets: ChildSecrets['secrets'] = {}
      for (const kind of SECRET_KINDS) {
        const value = await vault.get(accountId, kind)
        if (value !== null) secrets[kind] = value
      }
      say('secrets', JSON.stringify({ accountId, secrets } satisfies ChildSecrets))
    },
  }
}

/** Runs the child's work; a failure is said on stderr and ends the process with code 1. */
export function runChild(work: () => Promise<void>): void {
  work().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`child failed: ${err instanceof Error ? err.stack : String(err)}\n`)
      process.exit(1)
    },
  )
}

/** Never resolves, and keeps the process alive meanwhile: the child waits here to be killed. */
export function untilKilled(): Promise<never> {
  return new Promise(() => setInterval(() => undefined, 60_000))
}
