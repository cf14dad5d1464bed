// The setup of the integration tests: one recorded sandbox for a test file (or describe block),
// reset before each test, and a fresh core on a temporary data folder for each test: plain, with
// the analyst signed in, or ready for exports (recording host, analyst and download folder).
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { ApiCallOutput } from '@contract/channels'
import type { AppError } from '@contract/errors'
import type { CoreOptions } from '../../electron/core/index'
import type { SandboxOptions } from '../../sandbox/server'
import {
  addAnalyst,
  startRecordedSandbox,
  startTestCore,
  type RecordedSandbox,
  type TestCore,
} from './core-helpers'
import { startExportCore, type RecordingHost } from './exports-helpers'

export interface FixtureOptions {
  /** Options of the sandbox (started once, on 127.0.0.1 and a free port, in test mode). */
  sandbox?: SandboxOptions
  /**
   * What each test gets after a sandbox reset: 'core' a fresh core (the default), 'analyst' that
   * core with the analyst signed in, 'exports' a core with a recording host, short poll waits,
   * the analyst and a download folder; 'none' nothing per test (and no reset).
   */
  each?: 'core' | 'analyst' | 'exports' | 'none'
  /** Options of each test's core (with 'core' and 'analyst'). */
  core?: Partial<CoreOptions>
}

/** What the hooks started; read it inside tests and hooks (set by beforeAll and beforeEach). */
export interface SandboxAndCore {
  sandbox: RecordedSandbox
  /** This test's core (closed after the test). */
  t: TestCore
  /** The analyst's account ('analyst' and 'exports'). */
  account: AccountView
  /** The host that records what the core asked of it ('exports'). */
  host: RecordingHost
  /** The account's download folder ('exports'). */
  folder: string
  /**
   * Starts a new core on the data folder and vault of `t` (close `t` first), as a restart would;
   * with 'exports' the account and download folder stay.
   */
  reopen(): Promise<void>
}

/** Starts the sandbox for the enclosing file or describe block and a core for each test. */
export function useSandboxAndCore(options: FixtureOptions = {}): SandboxAndCore {
  const each = options.each ?? 'core'
  const s = {
    async reopen() {
      if (each === 'exports') Object.assign(s, await startExportCore(s.sandbox, s))
      else s.t = await startTestCore({ ...options.core, dataDir: s.t.dataDir, vault: s.t.vault })
    },
  } as SandboxAndCore

  beforeAll(async () => {
    s.sandbox = await startRecordedSandbox(options.sandbox)
  })
  afterAll(() => s.sandbox.close())
  if (each === 'none') return s

  beforeEach(async () => {
    s.sandbox.reset()
    if (each === 'exports') {
      Object.assign(s, await startExportCore(s.sandbox))
      return
    }
    s.t = await startTestCore(options.core)
    if (each === 'analyst') s.account = await addAnalyst(s.t, s.sandbox)
  })
  afterEach(() => s.t.close())
  return s
}

/** A resource's attributes, as the API answers them. */
export type Attrs = Record<string, unknown>
/** One resource, as the API answers it. */
export type One = { data: { id: string; attributes: Attrs } }

/** Calls of catalog operations as the analyst ('analyst'), read from `s` at call time. */
export interface AnalystApi {
  /** Runs an operation that must succeed; its answer's data. */
  api<T = One>(op: string, input?: unknown): Promise<T>
  /** Runs an operation that must fail; its error. */
  apiErr(op: string, input?: unknown): Promise<AppError>
}

/** `api` and `apiErr` for the analyst's account of `s`. */
export function analystApi(s: SandboxAndCore): AnalystApi {
  return {
    async api<T = One>(op: string, input?: unknown): Promise<T> {
      const out = await s.t.ok<ApiCallOutput>('api.call', { accountId: s.account.id, op, input })
      return out.data as T
    },
    apiErr: (op, input) => s.t.err('api.call', { accountId: s.account.id, op, input }),
  }
}
