// Pieces of the sign-in integration tests: a recording proxy in front of a sandbox (to see the
// credentials each request carried), one-time codes read from the sandbox log, and waiting.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ChallengeView, SignInOutcome } from '../../electron/contract/sessions'
import type { RecordedSandbox } from './core-helpers'

/** One request as it passed the proxy: the credentials it carried. */
export interface SeenCredentials {
  method: string
  path: string
  apiKey: string | undefined
  authorization: string | undefined
}

/** A loopback proxy that forwards every request to one sandbox and records its credentials. */
export interface RecordingProxy {
  baseUrl: string
  seen: SeenCredentials[]
  close(): Promise<void>
}

/** Starts a recording proxy on 127.0.0.1 (a free port) in front of `target`. */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const to = new URL(target)
  const seen: SeenCredentials[] = []
  const server = http.createServer((req, res) => {
    const header = (name: string) => {
      const v = req.headers[name]
      return Array.isArray(v) ? v.join(',') : v
    }
    seen.push({
      method: req.method ?? '',
      path: (req.url ?? '').split('?')[0],
      apiKey: header('x-api-key'),
      authorization: header('authorization'),
    })
    const upstream = http.request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: to.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** The newest one-time code the sandbox logged for `email` after log line `from`. */
export function otpFor(sandbox: RecordedSandbox, email: string, from = 0): string {
  const pattern = new RegExp(`^\\[otp\\] ${email.replace(/[.@]/g, '\\$&')}: (\\d{6})`)
  const codes = sandbox.lines
    .slice(from)
    .map((l) => pattern.exec(l.line)?.[1])
    .filter((c): c is string => c !== undefined)
  const code = codes.at(-1)
  if (!code) throw new Error(`no one-time code for ${email} in the sandbox log`)
  return code
}

/** The recovery codes the sandbox logged for `email` (the newest list). */
export function recoveryCodesFor(sandbox: RecordedSandbox, email: string): string[] {
  const prefix = `[recovery-codes] ${email}: `
  const line = sandbox.lines.map((l) => l.line).findLast((l) => l.startsWith(prefix))
  if (!line) throw new Error(`no recovery codes for ${email} in the sandbox log`)
  return line.slice(prefix.length).split(' ')
}

/** The challenge of an outcome (throws when the sign-in needed no second factor). */
export function challengeOf(outcome: SignInOutcome): ChallengeView {
  if (outcome.status !== 'challenge') throw new Error('expected a second-factor challenge')
  return outcome.challenge
}

/** Waits until `check` holds (polling every 10 ms), or fails after `ms`. */
export async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 10))
  }
}
