// Shared pieces of the core integration tests: a real sandbox over HTTP that records every
// request it answers, and a core on a temporary data folder that records every event.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AccountView } from '@contract/accounts'
import type { ApiCallOutput } from '@contract/channels'
import { EVENT_NAMES, type EventName } from '@contract/channel-names'
import type { AppError, Result } from '@contract/errors'
import type { SignInOutcome } from '@contract/sessions'
import { MemoryVault } from '../../electron/core/accounts/memory-vault'
import { createCore, type Core, type CoreOptions } from '../../electron/core/index'
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox/server'

/** A sandbox plus the request lines it logged (method, path, status). */
export interface RecordedSandbox extends RunningSandbox {
  requests: string[]
  /** Every line the sandbox logged, with the time it arrived. */
  lines: { at: number; line: string }[]
  /** The same lines as text (for the readers of tests/support/otp.ts). */
  logged: string[]
}

/** Starts the real sandbox on a free loopback port with request logging into memory. */
export async function startRecordedSandbox(options: SandboxOptions = {}): Promise<RecordedSandbox> {
  const lines: { at: number; line: string }[] = []
  const sandbox = await startSandbox({
    port: 0,
    testMode: true,
    logRequests: true,
    ...options,
    log: (line) => lines.push({ at: Date.now(), line }),
  })
  return Object.defineProperties(sandbox, {
    lines: { value: lines },
    logged: { get: () => lines.map((l) => l.line) },
    requests: {
      get: () => lines.map((l) => l.line).filter((l) => /^(GET|POST|PUT|PATCH|DELETE) /.test(l)),
    },
  }) as RecordedSandbox
}

/** A core on a fresh temporary folder, with every event and log line it produced. */
export interface TestCore {
  core: Core
  dataDir: string
  vault: MemoryVault | undefined
  events: { name: EventName; payload: unknown }[]
  logs: string[]
  /** Every JSON text dispatch returned. */
  results: string[]
  call<T = unknown>(channel: string, payload?: unknown): Promise<Result<T>>
  ok<T = unknown>(channel: string, payload?: unknown): Promise<T>
  err(channel: string, payload?: unknown): Promise<AppError>
  close(): Promise<void>
}

/** Creates a core; by default with an in-memory vault so tests can look inside it. */
export async function startTestCore(
  options: Partial<CoreOptions> & { useDefaultVault?: boolean } = {},
): Promise<TestCore> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-core-'))
  const vault = options.useDefaultVault
    ? undefined
    : ((options.vault as MemoryVault) ?? new MemoryVault())
  const logs: string[] = []
  const core = await createCore({
    mode: 'browser',
    version: '0.0.0-test',
    httpLimits: { backoffBaseMs: 20, backoffMaxMs: 100 },
    // Off unless a test turns it on: its rounds would add requests other tests count.
    notificationIntervalMs: 0,
    log: (level, message) => logs.push(`${level} ${message}`),
    ...options,
    dataDir,
    vault,
  })
  const events: { name: EventName; payload: unknown }[] = []
  core.events.onAny((name, payload) => events.push({ name, payload }), EVENT_NAMES)
  const results: string[] = []
  const call = async <T>(channel: string, payload: unknown = {}) => {
    const text = await core.dispatch(channel, payload, { origin: 'browser' })
    results.push(text)
    return JSON.parse(text) as Result<T>
  }
  return {
    core,
    dataDir,
    vault,
    events,
    logs,
    results,
    call,
    async ok<T>(channel: string, payload?: unknown) {
      const r = await call<T>(channel, payload)
      if (!r.ok) throw new Error(`${channel} failed: ${JSON.stringify(r.error)}`)
      return r.data
    },
    async err(channel: string, payload?: unknown) {
      const r = await call(channel, payload)
      if (r.ok) throw new Error(`${channel} unexpectedly succeeded`)
      return r.error
    },
    close: () => core.close(),
  }
}

/** The accounts.add payload for the sandbox's analyst (no 2FA). */
export function analystAccount(sandbox: { baseUrl: string; apiKey: string }, over = {}) {
  return {
    label: 'Sandbox analyst',
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    username: 'analyst@sandbox.test',
    password: 'sandbox-password',
    release: 'latest',
    color: '#3366ff',
    ...over,
  }
}

/** Adds the analyst account through dispatch and returns its view (it has no second factor). */
export async function addAnalyst(
  t: TestCore,
  sandbox: { baseUrl: string; apiKey: string },
  over = {},
): Promise<AccountView> {
  return signedIn(await t.ok<SignInOutcome>('accounts.add', analystAccount(sandbox, over)))
}

/** The account of a sign-in that needed no second factor (throws on a challenge). */
export function signedIn(outcome: SignInOutcome): AccountView {
  if (outcome.status !== 'signedIn') throw new Error('expected to be signed in, got a challenge')
  return outcome.account
}

/** The e-mail of the user the account's session belongs to, as the service says. */
export async function whoAmI(t: TestCore, accountId: string): Promise<string> {
  const out = await t.ok<ApiCallOutput>('api.call', { accountId, op: 'user.show' })
  return (out.data as { data: { attributes: { email: string } } }).data.attributes.email
}

/** Every file under `dir` concatenated (to search the store's bytes for secrets). */
export function bytesOf(dir: string): Buffer {
  const parts: Buffer[] = []
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) parts.push(fs.readFileSync(path.join(entry.parentPath, entry.name)))
  }
  return Buffer.concat(parts)
}
