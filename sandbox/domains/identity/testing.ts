// Test helpers of the identity domain's tests: a sandbox with every domain and a log to read.
import { call } from '../../engine/testing'
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../server'

export { call }

/** A started sandbox plus every line it logged. */
export interface LoggedSandbox {
  sb: RunningSandbox
  lines: string[]
}

/** Starts the full sandbox on a free 127.0.0.1 port, collecting its log lines. */
export async function startLogged(options: SandboxOptions = {}): Promise<LoggedSandbox> {
  const lines: string[] = []
  const sb = await startSandbox({ port: 0, log: (line) => lines.push(line), ...options })
  return { sb, lines }
}

/** The last one-time code logged for `email` (`[otp] email: 123456`). */
export function lastOtp(lines: string[], email: string): string {
  const prefix = `[otp] ${email}: `
  const line = [...lines].reverse().find((l) => l.startsWith(prefix))
  if (!line) throw new Error(`no one-time code logged for ${email}`)
  return line.slice(prefix.length, prefix.length + 6)
}

/** The last token logged under `[tag] email: token`. */
export function lastLogged(lines: string[], tag: string, email: string): string {
  const prefix = `[${tag}] ${email}: `
  const line = [...lines].reverse().find((l) => l.startsWith(prefix))
  if (!line) throw new Error(`nothing logged as ${tag} for ${email}`)
  return line.slice(prefix.length)
}

/** Signs in with the sandbox password; returns the raw JSON answer. */
export async function signIn(sb: RunningSandbox, username: string, password = 'sandbox-password') {
  return call(sb, 'POST', '/auth/sign_in', { body: { username, password } })
}
