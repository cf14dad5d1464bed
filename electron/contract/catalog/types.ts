import { z } from 'zod'
import type { Release } from '../releases'

/** The operation groups of interface §1; also the OpenAPI tags. */
export const GROUP_IDS = [
  'auth',
  'targets',
  'scans',
  'reports',
  'advanced_reports',
  'vulnerabilities',
  'exceptions',
  'schedules',
  'webhooks',
  'audit',
  'notifications',
  'hosts',
  'scanners',
  'port_lists',
  'credentials',
  'user',
  'organizations',
  'users',
  'white_label',
  'billing',
  'saq',
] as const

/** One operation group id. */
export type GroupId = (typeof GROUP_IDS)[number]

/** HTTP methods the interface uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** What the client does offline: serve a cached answer, queue the write, or fail fast. */
export type OfflinePolicy = 'cache' | 'queue' | 'online-only'

/** Whether the path and payload are given by the interface or decided here (documented in docs/api.md). */
export type Source = 'interface' | 'decided'

/** 'none': only the x-api-key header (sign-in and other pre-session calls); 'user': plus Bearer/Basic. */
export type AuthMode = 'none' | 'user'

/** 'json' answers are parsed and checked; 'file' answers are bytes (PDF, CSV) streamed by the files module. */
export type ResponseKind = 'json' | 'file'

/**
 * How the sandbox serves an operation. The generic kinds run against a named collection of its
 * store; 'custom' means a hand-written handler keyed by the operation id.
 */
export type SandboxSpec =
  | {
      kind: 'list' | 'show' | 'create' | 'update' | 'delete' | 'bulk_delete'
      collection: string
      parent?: { param: string; field: string }
    }
  | { kind: 'custom' }

/** An empty, strict object: no path parameters or no query. */
export const none = z.strictObject({})
export type NoneSchema = typeof none

/** One catalog entry: everything the client, the sandbox, the docs and the UI derive from. */
export interface OperationDef<
  Id extends string = string,
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType | null = z.ZodType | null,
  R extends z.ZodType = z.ZodType,
> {
  id: Id
  group: GroupId
  method: HttpMethod
  /** Path template with `{name}` placeholders, e.g. `/v2/scans/{id}/start`. */
  path: string
  pathParams: P
  query: Q
  /** Request body schema; null when the operation sends no body. */
  body: B
  /** Schema of a 2xx JSON answer (for 'file' answers: of the metadata the client reports). */
  response: R
  responseKind: ResponseKind
  releases: readonly Release[]
  idempotent: boolean
  offline: OfflinePolicy
  auth: AuthMode
  summary: string
  source: Source
  /** Statuses the operation documents besides 2xx (401 always applies to 'user' operations). */
  errors: readonly number[]
  /** 2xx status of a successful answer. */
  successStatus: number
  sandbox: SandboxSpec
  /** Marked by the interface as not implemented by the service (user.active_plans). */
  notImplemented?: boolean
  /**
   * A calculation sent by POST that changes nothing at the service (calculate hosts, schedule
   * dates, phone lookup): callers refresh nothing after it.
   */
  computeOnly: boolean
  /** A valid request against the sandbox's seeded data (docs and the catalog coverage test). */
  example: OperationExample
}

/** A valid request: path parameters, query and body. */
export interface OperationExample {
  path?: Record<string, string>
  query?: Record<string, string | number | boolean>
  body?: unknown
}

type Spec<Id extends string, P, Q, B, R> = {
  id: Id
  group: GroupId
  method: HttpMethod
  path: string
  pathParams?: P
  query?: Q
  body?: B
  response: R
  responseKind?: ResponseKind
  releases: readonly Release[]
  idempotent?: boolean
  offline?: OfflinePolicy
  auth?: AuthMode
  summary: string
  source: Source
  errors?: readonly number[]
  successStatus?: number
  sandbox: SandboxSpec
  notImplemented?: boolean
  computeOnly?: boolean
  example?: OperationExample
}

/**
 * Builds a catalog entry with the defaults of this catalog: no path parameters, no query, no
 * body, JSON answer, user authentication; GET/PUT/DELETE idempotent, POST not; GETs cached,
 * everything else online-only unless the entry says otherwise.
 */
export function defineOperation<
  const Id extends string,
  P extends z.ZodType = NoneSchema,
  Q extends z.ZodType = NoneSchema,
  B extends z.ZodType | null = null,
  R extends z.ZodType = z.ZodType,
>(spec: Spec<Id, P, Q, B, R>): OperationDef<Id, P, Q, B, R> {
  const method = spec.method
  return {
    id: spec.id,
    group: spec.group,
    method,
    path: spec.path,
    pathParams: (spec.pathParams ?? none) as P,
    query: (spec.query ?? none) as Q,
    body: (spec.body ?? null) as B,
    response: spec.response,
    responseKind: spec.responseKind ?? 'json',
    releases: spec.releases,
    idempotent: spec.idempotent ?? method !== 'POST',
    offline: spec.offline ?? (method === 'GET' ? 'cache' : 'online-only'),
    auth: spec.auth ?? 'user',
    summary: spec.summary,
    source: spec.source,
    errors: spec.errors ?? defaultErrors(method, spec.auth ?? 'user', spec.path, spec.body != null),
    successStatus:
      spec.successStatus ?? (method === 'POST' && spec.sandbox.kind === 'create' ? 201 : 200),
    sandbox: spec.sandbox,
    notImplemented: spec.notImplemented,
    computeOnly: spec.computeOnly ?? false,
    example: spec.example ?? {},
  }
}

function defaultErrors(
  method: HttpMethod,
  auth: AuthMode,
  path: string,
  hasBody: boolean,
): number[] {
  const out: number[] = []
  if (auth === 'user') out.push(401, 403)
  if (path.includes('{')) out.push(404)
  if (hasBody || method === 'GET') out.push(422)
  return out
}

/** Turns a list of entries into a record keyed by id (keeps each entry's precise type). */
export function defineGroup<const Ops extends readonly OperationDef[]>(
  ops: Ops,
): { [O in Ops[number] as O['id']]: O } {
  const out: Record<string, OperationDef> = {}
  for (const op of ops) {
    if (out[op.id]) throw new Error(`duplicate operation id ${op.id}`)
    out[op.id] = op
  }
  return out as { [O in Ops[number] as O['id']]: O }
}

/** The input of one call: path parameters, query and body, each checked against the entry. */
export type OperationInput<O extends OperationDef> = {
  path?: z.input<O['pathParams']>
  query?: z.input<O['query']>
  body?: O['body'] extends z.ZodType ? z.input<O['body']> : never
}

/** The parsed answer of one call. */
export type OperationOutput<O extends OperationDef> = z.output<O['response']>
