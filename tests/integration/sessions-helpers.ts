// Pieces of the sign-in integration tests: a recording proxy in front of a sandbox (to see the
// credentials each request carried), second-factor challenges, and waiting. One-time codes and
// other values from the sandbox log are read with tests/support/otp.ts.
import type { ChallengeView, SignInOutcome } from '@contract/sessions'
import { startHttpProxy } from '../support/http-proxy'

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
  const seen: SeenCredentials[] = []
  const proxy = await startHttpProxy(target, {
    intercept(req) {
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
      return false
    },
  })
  return { baseUrl: proxy.baseUrl, seen, close: () => proxy.close() }
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
