// Browser-mode access: one-time launch tokens exchanged for a per-run session cookie and a page
// key. Decisions: docs/decisions.md, "Browser mode: the launch token (issue 12, weakness 1)" and
// "Browser mode: the page key (issue 23, weakness 1)".
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** How long a launch token stays valid when nobody uses it (2 minutes). */
export const LAUNCH_TTL_MS = 2 * 60_000

/** A fresh secret: 32 random bytes (256 bits), URL-safe base64 (fits in a query string as is). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url')
}

// Secrets are kept as SHA-256 digests and looked up by the digest of what was presented: the
// lookup's timing can only reveal digests, never a secret, and nothing in memory is replayable.
function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** How a launch token ended: exchanged for a session, expired unused, or the server closed. */
export type LaunchOutcome = 'exchanged' | 'expired' | 'closed'

/** A launch token just issued, and a promise of how it ends. */
export interface IssuedLaunch {
  token: string
  expiresAt: number
  settled: Promise<LaunchOutcome>
}

interface Pending {
  expiresAt: number
  settle: (outcome: LaunchOutcome) => void
  timer: NodeJS.Timeout
}

/** The launch tokens of one run: each valid once, until it expires. */
export class LaunchTokens {
  private readonly pending = new Map<string, Pending>()

  constructor(
    private readonly ttlMs: number = LAUNCH_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Issues a new token valid for one exchange within the TTL. */
  issue(): IssuedLaunch {
    const token = newSecret()
    const key = digest(token)
    const expiresAt = this.now() + this.ttlMs
    let settle!: (outcome: LaunchOutcome) => void
    const settled = new Promise<LaunchOutcome>((resolve) => (settle = resolve))
    const timer = setTimeout(() => this.end(key, 'expired'), this.ttlMs)
    timer.unref()
    this.pending.set(key, { expiresAt, settle, timer })
    return { token, expiresAt, settled }
  }

  /** True (once) when `presented` is a pending token that has not expired; it is spent either way. */
  redeem(presented: string | null | undefined): boolean {
    if (typeof presented !== 'string' || presented.length === 0) return false
    const key = digest(presented)
    const entry = this.pending.get(key)
    if (!entry) return false
    const fresh = this.now() < entry.expiresAt
    this.end(key, fresh ? 'exchanged' : 'expired')
    return fresh
  }

  /** Forgets every pending token (the server is closing). */
  closeAll(): void {
    for (const key of [...this.pending.keys()]) this.end(key, 'closed')
  }

  private end(key: string, outcome: LaunchOutcome): void {
    const entry = this.pending.get(key)
    if (!entry) return
    this.pending.delete(key)
    clearTimeout(entry.timer)
    entry.settle(outcome)
  }
}

/** A new session: the cookie's value and the page key the page's script keeps. */
export interface NewSession {
  session: string
  key: string
}

/**
 * The sessions of one run, each with its page key: random values handed out at the launch
 * exchange (the session in the cookie, the key to the page's script), valid until the run ends.
 */
export class Sessions {
  /** digest(session) → digest(page key). */
  private readonly known = new Map<string, string>()

  /** A new session and its page key (one per exchanged launch token). */
  create(): NewSession {
    const session = newSecret()
    const key = newSecret()
    this.known.set(digest(session), digest(key))
    return { session, key }
  }

  /** True when `value` is a session of this run. */
  has(value: string): boolean {
    return value.length > 0 && this.known.has(digest(value))
  }

  /**
   * True when one of `sessions` (the cookie's values) is a session of this run and `key` is that
   * session's page key. A key of another session, or none, is refused.
   */
  keyFits(sessions: readonly string[], key: string | null | undefined): boolean {
    if (typeof key !== 'string' || key.length === 0) return false
    const presented = Buffer.from(digest(key), 'hex')
    return sessions.some((value) => {
      const expected = value.length > 0 ? this.known.get(digest(value)) : undefined
      return expected !== undefined && timingSafeEqual(Buffer.from(expected, 'hex'), presented)
    })
  }

  /** Ends every session (the server is closing). */
  clear(): void {
    this.known.clear()
  }
}

/**
 * The session cookie's name for this run: `scandesk-<port>-<random>`. The `__Host-` prefix needs
 * `Secure`, which a browser refuses on plain http, so the name carries the port and a per-run
 * random part instead; the cookie is host-only (no Domain) with Path=/ as `__Host-` would force.
 */
export function sessionCookieName(port: number, random = randomBytes(8).toString('hex')): string {
  return `scandesk-${port}-${random}`
}

/** The Set-Cookie value that hands a session to the browser (never readable by scripts). */
export function sessionCookie(name: string, value: string): string {
  return `${name}=${value}; HttpOnly; SameSite=Strict; Path=/`
}
