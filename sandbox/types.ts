import type { Readable } from 'node:stream'
import type { z } from 'zod'
import type { Op, OperationId } from '@contract/catalog'
import type { OperationDef } from '@contract/catalog/types'
import type { FieldErrors } from '@contract/errors'
import type { Release } from '@contract/releases'

/**
 * One stored record. `id`, `type` and `attributes` are what the API shows ({id, type, attributes});
 * `internal` holds what the service keeps but never shows (password hashes, OTP secrets, file
 * seeds, owner ids). Everything is plain JSON so `--data FILE` can persist it.
 */
export interface Row {
  id: string
  type: string
  attributes: Record<string, unknown>
  internal?: Record<string, unknown>
}

/** The sandbox's whole state: named collections of rows plus id counters. JSON-serialisable. */
export interface SandboxState {
  collections: Record<string, Record<string, Row>>
  counters: Record<string, number>
}

/** Who is calling, resolved by the engine from x-api-key + Bearer/Basic before a handler runs. */
export interface Caller {
  userId: string
  organizationId: string
  role: 'administrator' | 'manager' | 'analyst' | 'customer'
  /** 'session' for Bearer tokens from sign-in, 'access_token' for Basic access tokens. */
  via: 'session' | 'access_token'
  /** The token that authenticated this request (to revoke on sign-out). */
  token: string
  /** Set while an administrator impersonates this user. */
  impersonatorId?: string
}

/**
 * A validated request as the engine and the generic kinds see it: the parsed values, untyped.
 * Shared helpers take this; a typed `HandlerRequest<Id>` is assignable to it.
 */
export interface SandboxRequest {
  op: OperationDef
  path: Record<string, string>
  query: Record<string, unknown>
  body: unknown
  /** Null for operations whose catalog auth is 'none'. */
  caller: Caller | null
  headers: Record<string, string | string[] | undefined>
  /** The address the request came from (the audit log's `ip_address`); absent in unit tests. */
  remoteAddress?: string
}

/**
 * The parsed value of a path or query schema. An entry that declares none gets the catalog's
 * empty strict object, which the catalog's types record only as `z.ZodType` (output unknown):
 * that is `{}` at run time.
 */
type Parsed<S extends z.ZodType> = unknown extends z.output<S> ? Record<string, never> : z.output<S>

/** The parsed body of operation `Id` (undefined for operations without one). */
type BodyOf<Id extends OperationId> = Op<Id>['body'] extends z.ZodType
  ? z.output<Op<Id>['body']>
  : undefined

/**
 * The request a handler of operation `Id` receives: path parameters, query and body are the zod
 * *outputs* of that operation's catalog schemas (the engine validates and passes parsed values).
 */
export interface HandlerRequest<Id extends OperationId> {
  op: Op<Id>
  path: Parsed<Op<Id>['pathParams']>
  query: Parsed<Op<Id>['query']>
  body: BodyOf<Id>
  /** Null for operations whose catalog auth is 'none'. */
  caller: Caller | null
  headers: Record<string, string | string[] | undefined>
}

/** A file answer: bytes or a stream, with its type; the engine applies download faults to it. */
export interface SandboxFile {
  contentType: string
  filename: string
  size: number
  body: Buffer | (() => Readable)
}

/** What a handler returns. */
export interface SandboxResponse {
  status: number
  body?: unknown
  headers?: Record<string, string>
  file?: SandboxFile
}

/** Thrown by handlers (via ctx helpers) to answer with an error status and body. */
export class SandboxHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors?: FieldErrors,
  ) {
    super(message)
  }
}

/** How much data the seed makes: the demo data, or the demo data plus bulk rows (docs/sandbox.md). */
export type SeedScale = 'default' | 'large'

/** Small deterministic random source (seeded). */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number
  /** Integer in [min, max]. */
  int(min: number, max: number): number
  pick<T>(items: readonly T[]): T
}

/** Store access shared by the engine and every domain. */
export interface SandboxDb {
  readonly state: SandboxState
  list(collection: string): Row[]
  get(collection: string, id: string): Row | undefined
  /** The row or a 404 SandboxHttpError. */
  require(collection: string, id: string): Row
  insert(collection: string, row: Row): Row
  /** Shallow-merges `attributes` (and `internal`) into the row; 404 when missing. */
  update(
    collection: string,
    id: string,
    attributes: Record<string, unknown>,
    internal?: Record<string, unknown>,
  ): Row
  remove(collection: string, id: string): boolean
  /** Next id for a prefix: `${prefix}-${n}` with n zero-padded to 3 digits (tgt-001, tgt-002, …). */
  nextId(prefix: string): string
  /**
   * Marks an id (`exc-007`) as used, so `nextId` never hands it out: seeded history that names a
   * record no longer there (deleted) keeps naming that one, never a record created later.
   */
  reserveId(id: string): void
}

/** Sessions and access tokens (implemented by the engine; used by the auth and user domains). */
export interface SandboxSessions {
  /** Creates a Bearer session for `userId`; returns the token. */
  create(userId: string, options?: { impersonatorId?: string }): string
  revoke(token: string): void
  /** Creates (replacing any previous) access token for `userId`; returns it. */
  createAccessToken(userId: string): string
  revokeAccessToken(userId: string): boolean
  /** Who a token belongs to, or null. */
  resolve(scheme: 'Bearer' | 'Basic', token: string): Caller | null
}

/** Options the sandbox was started with that domains read. */
export interface SandboxContextOptions {
  fixedOtp?: string
  apiKey: string
  /** Sandbox-clock time a scan run takes from start to completion. */
  scanDurationMs: number
  /** Real time scanners.verify and port_lists.sync take before answering (0 in most tests). */
  actionDelayMs: number
  /** Sandbox-clock time before another SMS code may be sent for a sign-in. */
  smsCooldownMs: number
}

/** Everything a handler, a seeder or a tick can use. */
export interface SandboxContext {
  db: SandboxDb
  sessions: SandboxSessions
  rng: Rng
  release: Release
  /** The sandbox clock (tests may move it). */
  now(): Date
  /** Writes a line to the sandbox log (one-time codes go here). */
  log(line: string): void
  /** Options the sandbox was started with that domains read. */
  options: SandboxContextOptions
  /** Throws a 404 with the interface's "Record Not Found". */
  notFound(what?: string): never
  /** Throws a 422 with field errors. */
  invalid(fieldErrors: FieldErrors, message?: string): never
  /** Throws another error status (401, 403, 409). */
  error(status: number, message: string): never
}

/** A handler for catalog entry `Id` (sandbox kind 'custom', or overriding a generic kind). */
export type Handler<Id extends OperationId> = (
  req: HandlerRequest<Id>,
  ctx: SandboxContext,
) => SandboxResponse | Promise<SandboxResponse>

/**
 * A handler that reads only what every request has (the caller, untyped path/query/body): it
 * fits any operation. The engine calls every handler through this type.
 */
export type AnyHandler = (
  req: SandboxRequest,
  ctx: SandboxContext,
) => SandboxResponse | Promise<SandboxResponse>

/** Handlers keyed by operation id: a key that is not an operation id is a compile error. */
export type Handlers = { [K in OperationId]?: Handler<K> }

/** Types a set of handlers by their operation ids (each request typed by its operation). */
export function defineHandlers(handlers: Handlers): Handlers {
  return handlers
}

/**
 * One slice of the service: its seed data, its custom handlers keyed by operation id, and an
 * optional tick that advances time-driven state (a running scan's progress) before each request.
 */
export interface SandboxDomain {
  name: string
  /** Collections this domain owns, for the generic list/show/create/update/delete kinds. */
  collections: Record<string, CollectionSpec>
  seed(ctx: SandboxContext): void
  /**
   * Adds the bulk rows of the large seed scale. Runs after every domain's `seed`, so the demo
   * data stays exactly as at the default scale; must be fast (plain loops, ctx.rng only).
   */
  seedLarge?(ctx: SandboxContext): void
  /**
   * Brings a state loaded from a data file (saved by an earlier sandbox) up to what the current
   * seed guarantees (the demo user), keeping everything else.
   */
  upgrade?(ctx: SandboxContext): void
  handlers: Handlers
  tick?(ctx: SandboxContext): void
  /**
   * Runs around every catalog operation's handler (after validation and authentication), as a
   * service's middleware would: the reporting domain records each write in the audit log.
   * `next` runs the handler (or the next domain's `around`); errors pass through.
   */
  around?(
    req: SandboxRequest,
    ctx: SandboxContext,
    next: () => Promise<SandboxResponse>,
  ): Promise<SandboxResponse>
}

/** How the generic kinds treat one collection. */
export interface CollectionSpec {
  /** JSON:API type of its rows, e.g. 'target'. */
  type: string
  /** Id prefix, e.g. 'tgt' → tgt-001. */
  prefix: string
  /**
   * Rows only a parent's list shows (a scan's fixed findings: `scans.vulnerabilities` lists them,
   * `vulnerabilities.list` does not unless asked for them by `ids`).
   */
  onlyUnderParent?: (row: Row) => boolean
  /** When true, callers see only rows whose internal.organization_id is their organization's. */
  orgScoped?: boolean
  /**
   * With orgScoped: rows are the caller's own organization's settings, so even the root
   * organization's administrator (who otherwise sees every organization) sees only their own.
   */
  ownOrganizationOnly?: boolean
  /** Attributes a generic create adds before the body's own (defaults, computed fields). */
  defaults?(req: SandboxRequest, ctx: SandboxContext): Record<string, unknown>
  /** Attribute names the generic list's `search` matches (case-insensitive substring). */
  searchFields?: string[]
}
