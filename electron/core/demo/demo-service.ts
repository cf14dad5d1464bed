// The demo service as the core sees it. The core never imports the sandbox: the entry points that
// carry it (electron/main/demo.ts for Electron, scripts/browser-cli.ts for browser mode) hand its
// starter to demoServiceFactory, and a build without it hands none ("Try the demo service" then
// answers that this build has no demo service).
import type { DemoService, DemoServiceUser } from '../accounts/demo-account'

/**
 * The demo user: an administrator of the demo organization without two-factor sign-in, so the
 * demo shows every screen.
 */
export const DEMO_USER = { username: 'demo@sandbox.test', password: 'sandbox-password' }

export type { DemoService, DemoServiceUser }

/** Options of the demo service. */
export interface DemoOptions {
  /** JSON file that keeps the demo's state across runs (none: fresh state each run). */
  dataFile?: string
  /** Where the sandbox's log lines go (default: its own, stdout). */
  log?: (line: string) => void
}

/** Starts the demo service; what an entry point that carries the sandbox hands to the core. */
export type DemoServiceFactory = (options?: DemoOptions) => Promise<DemoService>

/** A started sandbox as the demo needs it (sandbox/server's RunningSandbox has this shape). */
export interface DemoSandbox {
  baseUrl: string
  apiKey: string
  users: readonly { username: string; password: string; twoFactor?: string; about?: string }[]
  close(): Promise<void>
}

/** How the sandbox is started (sandbox/server's startSandbox has this shape). */
export type StartDemoSandbox = (options: {
  port: number
  dataFile?: string
  log?: (line: string) => void
}) => Promise<DemoSandbox>

/**
 * The demo service factory over a sandbox starter: each start runs the sandbox on a free
 * 127.0.0.1 port and hands back the demo user's credentials.
 */
export function demoServiceFactory(startSandbox: StartDemoSandbox): DemoServiceFactory {
  return async (options = {}) => {
    const sandbox = await startSandbox({ port: 0, dataFile: options.dataFile, log: options.log })
    const user = sandbox.users.find((u) => u.username === DEMO_USER.username)
    if (!user) {
      await sandbox.close()
      throw new Error(`The demo service has no ${DEMO_USER.username} user.`)
    }
    return {
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      username: user.username,
      password: user.password,
      users: sandbox.users.map((u) => ({
        username: u.username,
        password: u.password,
        twoFactor: u.twoFactor === 'app' || u.twoFactor === 'sms' ? u.twoFactor : 'none',
        about: u.about ?? '',
      })),
      close: () => sandbox.close(),
    }
  }
}
