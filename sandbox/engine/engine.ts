import type { IncomingMessage, ServerResponse } from 'node:http'
import type { OperationDef } from '@contract/catalog/types'
import type { Release } from '@contract/releases'
import {
  SandboxHttpError,
  type AnyHandler,
  type Caller,
  type CollectionSpec,
  type Rng,
  type SandboxContext,
  type SandboxDomain,
  type SandboxRequest,
  type SandboxResponse,
  type SeedScale,
} from '../types'
import { SandboxClock, LogBuffer, createContext } from './context'
import { createDb, emptyState, type EngineDb } from './db'
import { errorBody } from './errors'
import { FaultState, type Faults } from './faults'
import { runGeneric } from './generic'
import { loadDataFile, Saver } from './persistence'
import { sendFile, sendJson } from './respond'
import { createRng } from './rng'
import { createRouter, type Router } from './router'
import { createSessions, type EngineSessions } from './sessions'
import { parseJsonBody, queryRecord, validateInput } from './validation'
import { handleControl } from './control'

/** Sandbox-clock time a scan run takes unless configured: two minutes. */
export const DEFAULT_SCAN_DURATION_MS = 2 * 60 * 1000

/** Real time scanners.verify and port_lists.sync take unless configured. */
export const DEFAULT_ACTION_DELAY_MS = 400
/** Minimum sandbox-clock time between two SMS codes for one challenge unless configured. */
export const DEFAULT_SMS_COOLDOWN_MS = 30_000

/** Largest request body accepted (413 beyond). */
export const MAX_BODY_BYTES = 1024 * 1024

/** Resolved engine settings. */
export interface EngineConfig {
  release: Release
  seed: number
  /** 'large' adds each domain's bulk rows after the demo data. */
  seedScale: SeedScale
  apiKey: string
  testMode: boolean
  fixedOtp?: string
  sessionTtlMs: number
  /** Sandbox-clock time of a scan run (default DEFAULT_SCAN_DURATION_MS). */
  scanDurationMs?: number
  /** Real time verify and sync take (default DEFAULT_ACTION_DELAY_MS). */
  actionDelayMs?: number
  /** Sandbox-clock time between two SMS codes of a sign-in (default DEFAULT_SMS_COOLDOWN_MS). */
  smsCooldownMs?: number
  faults: Partial<Faults>
  dataFile?: string
  log: (line: string) => void
  logRequests: boolean
}

/** What the engine serves: catalog operations and the domains that implement them. */
export interface EngineParts {
  operations: readonly OperationDef[]
  domains: readonly SandboxDomain[]
  /** Handlers of operations outside the catalog (the engine's own tests add such operations). */
  extraHandlers?: Record<string, AnyHandler>
}

/** Reads the body up to MAX_BODY_BYTES; null when it is larger. */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > MAX_BODY_BYTES) return Promise.resolve(null)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data')
        req.pause()
        resolve(null)
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name]
  return Array.isArray(v) ? v[0] : v
}

/** The whole sandbox behind the HTTP server: state, sessions, routing, faults and persistence. */
export class SandboxEngine {
  readonly db: EngineDb
  readonly sessions: EngineSessions
  readonly clock = new SandboxClock()
  readonly logs: LogBuffer
  readonly faults: FaultState
  readonly ctx: SandboxContext
  private readonly router: Router
  private readonly collections = new Map<string, CollectionSpec>()
  private readonly handlers = new Map<string, AnyHandler>()
  private rng: Rng
  private errorRng: Rng
  private saver: Saver | null = null

  constructor(
    readonly config: EngineConfig,
    private readonly parts: EngineParts,
  ) {
    this.logs = new LogBuffer(config.log)
    this.db = createDb()
    this.sessions = createSessions(this.db, () => this.clock.now(), config.sessionTtlMs)
    this.faults = new FaultState(config.faults)
    this.rng = createRng(config.seed)
    this.errorRng = createRng(config.seed ^ 0x5eed_f417)
    this.router = createRouter(parts.operations, config.release)
    this.ctx = createContext({
      db: this.db,
      sessions: this.sessions,
      rng: () => this.rng,
      release: config.release,
      clock: this.clock,
      log: this.logs,
      options: {
        fixedOtp: config.fixedOtp,
        apiKey: config.apiKey,
        scanDurationMs: config.scanDurationMs ?? DEFAULT_SCAN_DURATION_MS,
        actionDelayMs: config.actionDelayMs ?? DEFAULT_ACTION_DELAY_MS,
        smsCooldownMs: config.smsCooldownMs ?? DEFAULT_SMS_COOLDOWN_MS,
      },
    })
    for (const domain of parts.domains) {
      for (const [name, spec] of Object.entries(domain.collections)) {
        if (this.collections.has(name)) throw new Error(`sandbox: collection ${name} defined twice`)
        this.collections.set(name, spec)
      }
      for (const [opId, handler] of Object.entries(domain.handlers)) {
        if (!handler) continue
        if (this.handlers.has(opId)) throw new Error(`sandbox: two handlers for ${opId}`)
        // Validation gave the request the parsed shape of this operation, which the handler's
        // type promises; the map itself cannot say which handler belongs to which operation.
        this.handlers.set(opId, handler as AnyHandler)
      }
    }
    for (const [opId, handler] of Object.entries(parts.extraHandlers ?? {})) {
      if (this.handlers.has(opId)) throw new Error(`sandbox: two handlers for ${opId}`)
      this.handlers.set(opId, handler)
    }
  }

  /** Loads the data file when there is one, else seeds; sets up saving. */
  start(): void {
    const file = this.config.dataFile
    const loaded = file ? loadDataFile(file) : null
    if (loaded) {
      this.db.replace(loaded.state)
      this.sessions.restore(loaded.sessions)
      this.rng = createRng(this.config.seed ^ 0x0a11_ce55)
      for (const domain of this.parts.domains) domain.upgrade?.(this.ctx)
    } else {
      this.seed()
    }
    if (file) {
      this.saver = new Saver(
        file,
        () => ({ state: this.db.state, sessions: this.sessions.snapshot() }),
        (err) => this.logs.write(`sandbox: could not save ${file}: ${err.message}`),
      )
      if (!loaded) this.saver.schedule()
    }
    this.db.clearDirty()
  }

  /** Seeds every domain in order, each with a fresh Rng(seed), on an empty state. */
  private seed(): void {
    this.db.replace(emptyState())
    this.sessions.clear()
    for (const domain of this.parts.domains) {
      this.rng = createRng(this.config.seed)
      domain.seed(this.ctx)
    }
    if (this.config.seedScale === 'large') {
      for (const domain of this.parts.domains) {
        this.rng = createRng(this.config.seed ^ 0x1a26_e5ca)
        domain.seedLarge?.(this.ctx)
      }
    }
    this.rng = createRng(this.config.seed ^ 0x0a11_ce55)
  }

  /** Fresh seed, no sessions, clock and faults as at start. */
  reset(): void {
    // The clock first: the seed stamps rows with ctx.now(), which must not carry an old offset.
    this.clock.reset()
    this.seed()
    this.faults.reset(this.config.faults)
    this.errorRng = createRng(this.config.seed ^ 0x5eed_f417)
    this.saver?.schedule()
    this.db.clearDirty()
  }

  /** Saves pending state (on close). */
  async flush(): Promise<void> {
    await this.saver?.flush()
  }

  /** Answers one HTTP request. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now()
    const url = new URL(req.url ?? '/', 'http://sandbox.local')
    const method = (req.method ?? 'GET').toUpperCase()
    let status = 500
    try {
      status = await this.dispatch(req, res, method, url)
    } catch (err) {
      status = this.fail(res, err)
    } finally {
      // Domains may also edit rows in place, so every successful write is saved too.
      if (this.db.dirty || (method !== 'GET' && status < 400)) {
        this.saver?.schedule()
        this.db.clearDirty()
      }
      if (this.config.logRequests) {
        this.config.log(`${method} ${url.pathname} → ${status} (${Date.now() - started} ms)`)
      }
    }
  }

  private fail(res: ServerResponse, err: unknown): number {
    if (res.headersSent) {
      res.socket?.destroy()
      return 500
    }
    if (err instanceof SandboxHttpError) {
      sendJson(res, err.status, errorBody(err.status, err.message, err.fieldErrors))
      return err.status
    }
    this.logs.write(`sandbox: internal error: ${(err as Error)?.stack ?? String(err)}`)
    sendJson(res, 500, errorBody(500, 'The sandbox failed to handle this request'))
    return 500
  }

  private async dispatch(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: URL,
  ): Promise<number> {
    const raw = await readBody(req)
    if (raw === null) {
      res.setHeader('Connection', 'close')
      throw new SandboxHttpError(413, `Request bodies are limited to ${MAX_BODY_BYTES} bytes`)
    }
    if (header(req, 'x-api-key') !== this.config.apiKey) {
      throw new SandboxHttpError(401, 'A valid x-api-key header is required')
    }
    if (url.pathname.startsWith('/__control/') && this.config.testMode) {
      const answer = handleControl(this, method, url.pathname.slice('/__control/'.length), raw)
      sendJson(res, answer.status, answer.body)
      return answer.status
    }

    const route = this.router.match(method, url.pathname)
    if (route.kind === 'not_found') {
      throw new SandboxHttpError(
        404,
        route.reason === 'release'
          ? `This operation does not exist in release ${this.config.release}`
          : `No route for ${method} ${url.pathname}`,
      )
    }
    if (route.kind === 'method_not_allowed') {
      res.setHeader('Allow', route.allow.join(', '))
      throw new SandboxHttpError(405, `${method} is not allowed on ${url.pathname}`)
    }
    const op = route.op

    const f = this.faults.faults
    if (f.latencyMs > 0) await new Promise((r) => setTimeout(r, f.latencyMs))
    if (this.faults.rateLimited()) {
      res.setHeader('Retry-After', '1')
      throw new SandboxHttpError(429, 'Rate limit exceeded; retry after 1 second')
    }
    if (f.errorRate > 0 && this.faults.failing(this.errorRng.next())) {
      throw new SandboxHttpError(500, 'Injected server error')
    }

    for (const domain of this.parts.domains) domain.tick?.(this.ctx)

    const caller = op.auth === 'user' ? this.authenticate(req) : null
    const input = validateInput(op, route.params, queryRecord(url.searchParams), parseJsonBody(raw))
    const request: SandboxRequest = {
      op,
      ...input,
      caller,
      headers: req.headers,
      remoteAddress: req.socket.remoteAddress,
    }
    const answer = await this.run(request)

    const answerFaults = { dropMidBody: false, corruptDownloads: false, slowDripMs: 0 }
    if (answer.status >= 200 && answer.status < 300) {
      answerFaults.dropMidBody = f.dropMidBody
      if (answer.file) {
        answerFaults.corruptDownloads = f.corruptDownloads
        answerFaults.slowDripMs = f.slowDripMs
      }
    }
    if (answer.file) {
      await sendFile(res, answer.status, answer.file, answer.headers, answerFaults)
      return answer.status
    }
    // Every operation's JSON answer passes here: a GET's 200 gets an ETag and may become a 304.
    const conditional =
      op.method === 'GET' ? { ifNoneMatch: req.headers['if-none-match'] } : undefined
    return sendJson(res, answer.status, answer.body, answer.headers, answerFaults, conditional)
  }

  /** Resolves Bearer/Basic credentials into the caller, or throws 401. */
  private authenticate(req: IncomingMessage): Caller {
    const auth = header(req, 'authorization') ?? ''
    const m = /^(Bearer|Basic)\s+(\S+)\s*$/i.exec(auth)
    if (!m) throw new SandboxHttpError(401, 'Sign in first: a Bearer or Basic token is required')
    const scheme = m[1].toLowerCase() === 'basic' ? 'Basic' : 'Bearer'
    const caller = this.sessions.resolve(scheme, m[2])
    if (!caller) throw new SandboxHttpError(401, 'The token is invalid or has expired')
    if (this.faults.refuseToken()) throw new SandboxHttpError(401, 'The token is no longer valid')
    return caller
  }

  /** The handler inside every domain's `around` (the first domain's outermost). */
  private run(req: SandboxRequest): Promise<SandboxResponse> {
    const layers = this.parts.domains.flatMap((d) => (d.around ? [d.around.bind(d)] : []))
    const step = (i: number): Promise<SandboxResponse> =>
      i < layers.length ? layers[i](req, this.ctx, () => step(i + 1)) : this.handler(req)
    return step(0)
  }

  /** A domain handler for the op id wins; else the generic kind; 'custom' without one is 501. */
  private async handler(req: SandboxRequest): Promise<SandboxResponse> {
    const handler = this.handlers.get(req.op.id)
    if (handler) return handler(req, this.ctx)
    const spec = req.op.sandbox
    if (spec.kind === 'custom') {
      throw new SandboxHttpError(501, `The sandbox has no handler for ${req.op.id} yet`)
    }
    const collection = this.collections.get(spec.collection)
    if (!collection) {
      throw new SandboxHttpError(501, `No sandbox domain defines the collection ${spec.collection}`)
    }
    return runGeneric(spec, collection, req, this.ctx)
  }
}
