import { startSandbox } from '../../../sandbox/server'
import type { DemoService } from '../index'

/** The demo user: an analyst without two-factor sign-in. */
export const DEMO_USER = { username: 'analyst@sandbox.test', password: 'sandbox-password' }

export type { DemoService }

/** Options of the demo service. */
export interface DemoOptions {
  /** JSON file that keeps the demo's state across runs (none: fresh state each run). */
  dataFile?: string
  /** Where the sandbox's log lines go (default: its own, stdout). */
  log?: (line: string) => void
}

/** Starts the sandbox on a free 127.0.0.1 port and hands back the analyst's credentials. */
export async function startDemoService(options: DemoOptions = {}): Promise<DemoService> {
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
    close: () => sandbox.close(),
  }
}
