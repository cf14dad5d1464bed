import { z } from 'zod'

/** Faults the sandbox can inject (0 / false = off). */
export interface Faults {
  /** Delay before every operation's answer, in ms. */
  latencyMs: number
  /** Fraction (0..1) of operations that answer 500, drawn from a seeded stream. */
  errorRate: number
  /** Every Nth operation request answers 429 with `Retry-After: 1`. */
  rateLimitEvery: number
  /** Answers send their full Content-Length, half the body, then the socket is destroyed. */
  dropMidBody: boolean
  /** File answers have bytes flipped (Content-Length unchanged). */
  corruptDownloads: boolean
  /** After N authenticated requests every token is refused (401) until reset. */
  unauthorizedAfter: number
  /** File answers trickle one small chunk per this many ms. */
  slowDripMs: number
}

/** No faults. */
export const NO_FAULTS: Faults = {
  latencyMs: 0,
  errorRate: 0,
  rateLimitEvery: 0,
  dropMidBody: false,
  corruptDownloads: false,
  unauthorizedAfter: 0,
  slowDripMs: 0,
}

/** Schema of a partial fault update (control endpoint and options). */
export const faultsPatch = z.strictObject({
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  errorRate: z.number().min(0).max(1).optional(),
  rateLimitEvery: z.number().int().min(0).optional(),
  dropMidBody: z.boolean().optional(),
  corruptDownloads: z.boolean().optional(),
  unauthorizedAfter: z.number().int().min(0).optional(),
  slowDripMs: z.number().int().min(0).max(60_000).optional(),
})

/** Bytes per chunk while slow-dripping a file. */
export const DRIP_CHUNK = 1024

/** Current faults plus the counters they use. */
export class FaultState {
  faults: Faults
  private requests = 0
  private authenticated = 0

  constructor(initial: Partial<Faults> = {}) {
    this.faults = { ...NO_FAULTS, ...faultsPatch.parse(initial) }
  }

  /** Merges a patch; changing a counted fault restarts its counter. */
  set(patch: Partial<Faults>): Faults {
    const p = faultsPatch.parse(patch)
    if (p.rateLimitEvery !== undefined) this.requests = 0
    if (p.unauthorizedAfter !== undefined) this.authenticated = 0
    this.faults = { ...this.faults, ...p }
    return this.faults
  }

  /** Resets to `initial` faults and zero counters. */
  reset(initial: Partial<Faults>): void {
    this.faults = { ...NO_FAULTS, ...faultsPatch.parse(initial) }
    this.requests = 0
    this.authenticated = 0
  }

  /** Counts an operation request; true when this one must answer 429. */
  rateLimited(): boolean {
    this.requests++
    const n = this.faults.rateLimitEvery
    return n > 0 && this.requests % n === 0
  }

  /** True when this error draw must answer 500. */
  failing(draw: number): boolean {
    return this.faults.errorRate > 0 && draw < this.faults.errorRate
  }

  /** Counts an authenticated request; true when its token must be refused. */
  refuseToken(): boolean {
    const n = this.faults.unauthorizedAfter
    if (n <= 0) return false
    if (this.authenticated >= n) return true
    this.authenticated++
    return false
  }
}
