import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { operations } from '@contract/catalog/index'
import { isRelease, type Release } from '@contract/releases'
import { domains } from './domains/index'
import { SandboxEngine, type EngineParts } from './engine/engine'
import type { Faults } from './engine/faults'
import type { SeedScale } from './types'

export type { Faults } from './engine/faults'

/** Options of a sandbox run (CLI flags map onto these). */
export interface SandboxOptions {
  /** 0 = a free port (tests); the CLI defaults to 4010. */
  port?: number
  release?: Release
  seed?: number
  /** 'large': about 100,000 vulnerabilities, 20,000 targets and 5,000 scans besides the demo data. */
  seedScale?: SeedScale
  /** Load state from this file when it exists; save to it after every write. */
  dataFile?: string
  /** Default 'sandbox-api-key'. */
  apiKey?: string
  /** Mounts the /__control/ endpoints. */
  testMode?: boolean
  /** Every one-time code equals this. */
  fixedOtp?: string
  /** Lifetime of sign-in sessions by the sandbox clock (default 8 h). */
  sessionTtlMs?: number
  /** Sandbox-clock time a scan run takes from start to completion (default 2 min). */
  scanDurationMs?: number
  /** Real time scanners.verify and port_lists.sync take before answering (default 400 ms). */
  actionDelayMs?: number
  /** Sandbox-clock time before another SMS code may be sent for a sign-in (default 30 s). */
  smsCooldownMs?: number
  faults?: Partial<Faults>
  /** Where log lines go (one-time codes among them); default stdout. */
  log?: (line: string) => void
  /** Also log one line per request (the CLI turns this on). */
  logRequests?: boolean
}

/** A demo user of the seeded data. */
export interface SandboxUser {
  username: string
  password: string
  role: string
  twoFactor: 'none' | 'app' | 'sms'
  /** Who they are in the demo data, in words (the demo's account panel says it). */
  about: string
}

/** A started sandbox. */
export interface RunningSandbox {
  baseUrl: string
  port: number
  apiKey: string
  release: Release
  users: SandboxUser[]
  close(): Promise<void>
  /** Fresh seed, no sessions, clock and faults as at start. */
  reset(): void
  /** A Bearer token for the seeded user with this e-mail. */
  sessionFor(email: string): string
  setFaults(f: Partial<Faults>): void
  advanceClock(ms: number): void
}

/** Default API key of the sandbox. */
export const DEFAULT_API_KEY = 'sandbox-api-key'
/** Default session lifetime: 8 hours. */
export const DEFAULT_SESSION_TTL_MS = 8 * 60 * 60 * 1000
/** Default data seed. */
export const DEFAULT_SEED = 20240501

/** The demo users every seed contains (passwords are the sandbox's public demo passwords). */
export const DEMO_USERS: readonly SandboxUser[] = [
  {
    username: 'analyst@sandbox.test',
    password: 'sandbox-password',
    role: 'analyst',
    twoFactor: 'none',
    about: 'analyst of Acme Payments',
  },
  {
    username: 'demo@sandbox.test',
    password: 'sandbox-password',
    role: 'administrator',
    twoFactor: 'none',
    about: 'administrator of Acme Payments (the demo signs in as it)',
  },
  {
    username: 'manager@sandbox.test',
    password: 'sandbox-password',
    role: 'manager',
    twoFactor: 'none',
    about: 'manager of Acme Payments, may approve SAQs',
  },
  {
    username: 'admin@sandbox.test',
    password: 'sandbox-password',
    role: 'administrator',
    twoFactor: 'app',
    about: 'administrator who sees every organization',
  },
  {
    username: 'sms@sandbox.test',
    password: 'sandbox-password',
    role: 'analyst',
    twoFactor: 'sms',
    about: 'analyst of Acme Payments',
  },
]

/** Starts a sandbox serving `parts` (tests use this with their own operations or domains). */
export async function startSandboxWith(
  options: SandboxOptions,
  parts: EngineParts,
): Promise<RunningSandbox> {
  const release = options.release ?? 'latest'
  if (!isRelease(release)) throw new Error(`unknown release ${String(release)}`)
  const apiKey = options.apiKey ?? DEFAULT_API_KEY
  const engine = new SandboxEngine(
    {
      release,
      seed: options.seed ?? DEFAULT_SEED,
      seedScale: options.seedScale ?? 'default',
      apiKey,
      testMode: options.testMode ?? false,
      fixedOtp: options.fixedOtp,
      sessionTtlMs: options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS,
      scanDurationMs: options.scanDurationMs,
      actionDelayMs: options.actionDelayMs,
      smsCooldownMs: options.smsCooldownMs,
      faults: options.faults ?? {},
      dataFile: options.dataFile,
      log: options.log ?? ((line) => process.stdout.write(`${line}\n`)),
      logRequests: options.logRequests ?? false,
    },
    parts,
  )
  engine.start()

  const server: Server = createServer((req, res) => {
    void engine.handle(req, res)
  })
  server.keepAliveTimeout = 5_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  let closing: Promise<void> | null = null

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    apiKey,
    release,
    users: DEMO_USERS.map((u) => ({ ...u })),
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        })
        await engine.flush()
      })()
      return closing
    },
    reset: () => engine.reset(),
    sessionFor: (email) => engine.sessions.sessionFor(email),
    setFaults: (f) => void engine.faults.set(f),
    advanceClock: (ms) => engine.clock.advance(ms),
  }
}

/** Starts the sandbox with the whole catalog and every domain, listening on 127.0.0.1 only. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandboxWith(options, { operations, domains })
}
