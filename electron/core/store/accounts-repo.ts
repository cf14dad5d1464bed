import type { Release } from '@contract/releases'
import type { Db } from './database'
import { statementCache, type Statements } from './statements'

/** One account row: metadata only, never a secret. */
export interface AccountRow {
  id: string
  label: string
  baseUrl: string
  username: string
  release: Release
  color: string
  authMethod: 'password' | 'access_token'
  isDemo: boolean
  allowInsecureHttp: boolean
  /** Extra CA certificates (PEM) for on-premises TLS, or null. Public data, not a secret. */
  caBundle: string | null
  /** True when the user opted in to keep the password in the keychain (vault kind 'password'). */
  rememberPassword: boolean
  /** The user an administrator of this account is acting as, or null. */
  impersonating: Impersonation | null
  /** The user signed out: the offline copy is not served until the next sign-in. */
  copyLocked?: boolean
  createdAt: string
  updatedAt: string
}

/** Who an administrator's account is acting as, and since when (ISO). */
export interface Impersonation {
  userId: string
  email: string
  since: string
}

/** Fields of an account that may change after it was added. */
export type AccountPatch = Partial<
  Pick<
    AccountRow,
    | 'label'
    | 'baseUrl'
    | 'username'
    | 'release'
    | 'color'
    | 'authMethod'
    | 'allowInsecureHttp'
    | 'caBundle'
    | 'rememberPassword'
    | 'impersonating'
    | 'copyLocked'
  >
>

interface RawRow {
  id: string
  label: string
  base_url: string
  username: string
  release: string
  color: string
  auth_method: string
  is_demo: number
  allow_insecure_http: number
  ca_bundle: string | null
  remember_password: number
  impersonating: string | null
  copy_locked?: number
  created_at: string
  updated_at: string
}

function impersonationOf(text: string | null): Impersonation | null {
  if (!text) return null
  try {
    const v = JSON.parse(text) as Partial<Impersonation>
    return typeof v.userId === 'string' &&
      typeof v.email === 'string' &&
      typeof v.since === 'string'
      ? { userId: v.userId, email: v.email, since: v.since }
      : null
  } catch {
    return null
  }
}

function fromRaw(r: RawRow): AccountRow {
  return {
    id: r.id,
    label: r.label,
    baseUrl: r.base_url,
    username: r.username,
    release: r.release as Release,
    color: r.color,
    authMethod: r.auth_method as AccountRow['authMethod'],
    isDemo: r.is_demo === 1,
    allowInsecureHttp: r.allow_insecure_http === 1,
    caBundle: r.ca_bundle ?? null,
    rememberPassword: r.remember_password === 1,
    impersonating: impersonationOf(r.impersonating),
    copyLocked: r.copy_locked === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }
}

const COLUMNS: Record<keyof AccountPatch, string> = {
  label: 'label',
  baseUrl: 'base_url',
  username: 'username',
  release: 'release',
  color: 'color',
  authMethod: 'auth_method',
  allowInsecureHttp: 'allow_insecure_http',
  caBundle: 'ca_bundle',
  rememberPassword: 'remember_password',
  impersonating: 'impersonating',
  copyLocked: 'copy_locked',
}

/** A patch value as SQLite stores it: booleans as 0/1, the impersonation as JSON, null kept. */
function columnValue(value: unknown): unknown {
  if (value === null) return null
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'object') return JSON.stringify(value)
  return value
}

/**
 * Rows read by id, per open database, shared by every repo on it. `get` runs on every API call,
 * so it answers from memory; every write goes through this module and drops the changed row.
 */
const rowCaches = new WeakMap<Db, Map<string, AccountRow>>()

function cacheOf(db: Db): Map<string, AccountRow> {
  let cache = rowCaches.get(db)
  if (!cache) rowCaches.set(db, (cache = new Map()))
  return cache
}

/**
 * The id of the demo account per open database (null: there is none), known once asked: every
 * API call asks (DemoAccounts.needsStart); an insert or delete forgets it.
 */
const demoIds = new WeakMap<Db, string | null>()

/** The accounts table (the only writer of it: the in-memory row cache relies on that). */
export class AccountsRepo {
  private readonly cache: Map<string, AccountRow>
  private readonly statement: Statements

  constructor(private readonly db: Db) {
    this.cache = cacheOf(db)
    this.statement = statementCache(db)
  }

  /** Every account, oldest first. */
  list(): AccountRow[] {
    const rows = this.statement('SELECT * FROM accounts ORDER BY created_at, id').all() as RawRow[]
    return rows.map(fromRaw)
  }

  /** One account, or undefined (a copy: callers may not change the cached row). */
  get(id: string): AccountRow | undefined {
    let row = this.cache.get(id)
    if (!row) {
      const raw = this.statement('SELECT * FROM accounts WHERE id = ?').get(id) as
        RawRow | undefined
      if (!raw) return undefined
      row = fromRaw(raw)
      // A write inside an open transaction could still roll back: cache committed rows only.
      if (!this.db.inTransaction) this.cache.set(id, row)
    }
    return { ...row, impersonating: row.impersonating && { ...row.impersonating } }
  }

  /** The demo service's account, if one was added. */
  findDemo(): AccountRow | undefined {
    const known = demoIds.get(this.db)
    if (known === null) return undefined
    if (known !== undefined) return this.get(known)
    const row = this.statement(
      'SELECT id FROM accounts WHERE is_demo = 1 ORDER BY created_at LIMIT 1',
    ).get() as { id: string } | undefined
    // A write inside an open transaction could still roll back: remember committed state only.
    if (!this.db.inTransaction) demoIds.set(this.db, row?.id ?? null)
    return row && this.get(row.id)
  }

  /** Inserts a new account. */
  insert(a: AccountRow): void {
    this.cache.delete(a.id)
    demoIds.delete(this.db)
    this.statement(
      `INSERT INTO accounts (id, label, base_url, username, release, color, auth_method, is_demo,
         allow_insecure_http, ca_bundle, remember_password, impersonating, created_at, updated_at)
       VALUES (@id, @label, @baseUrl, @username, @release, @color, @authMethod, @isDemo,
         @allowInsecureHttp, @caBundle, @rememberPassword, @impersonating, @createdAt, @updatedAt)`,
    ).run({
      ...a,
      isDemo: columnValue(a.isDemo),
      allowInsecureHttp: columnValue(a.allowInsecureHttp),
      caBundle: a.caBundle ?? null,
      rememberPassword: columnValue(a.rememberPassword === true),
      impersonating: columnValue(a.impersonating ?? null),
    })
  }

  /** Changes some fields; returns the updated row, or undefined when it does not exist. */
  update(id: string, patch: AccountPatch, now = new Date().toISOString()): AccountRow | undefined {
    const sets: string[] = ['updated_at = @updatedAt']
    const values: Record<string, unknown> = { id, updatedAt: now }
    for (const [key, column] of Object.entries(COLUMNS) as [keyof AccountPatch, string][]) {
      const value = patch[key]
      if (value === undefined) continue
      sets.push(`${column} = @${key}`)
      values[key] = columnValue(value)
    }
    this.cache.delete(id)
    try {
      this.statement(`UPDATE accounts SET ${sets.join(', ')} WHERE id = @id`).run(values)
    } finally {
      this.cache.delete(id)
    }
    return this.get(id)
  }

  /** Deletes an account; true when it existed. */
  delete(id: string): boolean {
    try {
      return this.statement('DELETE FROM accounts WHERE id = ?').run(id).changes > 0
    } finally {
      this.cache.delete(id)
      demoIds.delete(this.db)
    }
  }
}
