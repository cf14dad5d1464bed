import { createHash, randomBytes } from 'node:crypto'
import type { Caller, SandboxDb, SandboxSessions } from '../types'

/** The collection the identity domain keeps users in; sessions resolve callers from it. */
export const USERS_COLLECTION = 'users'

const ROLES: readonly Caller['role'][] = ['administrator', 'manager', 'analyst', 'customer']

/** One stored Bearer session (keyed by the SHA-256 of its token, never the token itself). */
export interface StoredSession {
  userId: string
  impersonatorId?: string
  expiresAt: number
}

/** What persistence keeps of the sessions: token hashes only. */
export interface SessionsSnapshot {
  sessions: Record<string, StoredSession>
  /** userId → SHA-256 of that user's access token. */
  accessTokens: Record<string, string>
}

/** The engine's sessions: the domain-facing API plus snapshot/restore/clear and email lookup. */
export interface EngineSessions extends SandboxSessions {
  snapshot(): SessionsSnapshot
  restore(snapshot: SessionsSnapshot): void
  clear(): void
  /** Creates a Bearer session for the user with this e-mail (case-insensitive); throws if none. */
  sessionFor(email: string): string
}

const hash = (token: string): string => createHash('sha256').update(token).digest('hex')
const newToken = (): string => randomBytes(32).toString('hex')

/** Reads a user row into a Caller (organization and role), or null when the user is gone. */
function callerOf(
  db: SandboxDb,
  userId: string,
  via: Caller['via'],
  token: string,
  impersonatorId?: string,
): Caller | null {
  const row = db.get(USERS_COLLECTION, userId)
  if (!row) return null
  const attrs = row.attributes
  const internal = row.internal ?? {}
  const role = (attrs.role ?? internal.role) as Caller['role']
  const org = internal.organization_id ?? attrs.organization_id
  return {
    userId,
    organizationId: typeof org === 'string' ? org : '',
    role: ROLES.includes(role) ? role : 'analyst',
    via,
    token,
    ...(impersonatorId ? { impersonatorId } : {}),
  }
}

/**
 * Sessions and access tokens. Tokens are 256 random bits from node:crypto (never from the seeded
 * Rng), so they stay unguessable although the data is deterministic; only their hashes are kept.
 */
export function createSessions(db: SandboxDb, now: () => number, ttlMs: number): EngineSessions {
  let sessions = new Map<string, StoredSession>()
  let accessTokens = new Map<string, string>() // userId → hash
  let accessOwners = new Map<string, string>() // hash → userId

  const self: EngineSessions = {
    create(userId, options) {
      const token = newToken()
      sessions.set(hash(token), {
        userId,
        expiresAt: now() + ttlMs,
        ...(options?.impersonatorId ? { impersonatorId: options.impersonatorId } : {}),
      })
      return token
    },
    revoke(token) {
      sessions.delete(hash(token))
    },
    createAccessToken(userId) {
      self.revokeAccessToken(userId)
      const token = newToken()
      const h = hash(token)
      accessTokens.set(userId, h)
      accessOwners.set(h, userId)
      return token
    },
    revokeAccessToken(userId) {
      const h = accessTokens.get(userId)
      if (!h) return false
      accessTokens.delete(userId)
      accessOwners.delete(h)
      return true
    },
    resolve(scheme, token) {
      if (!token) return null
      const h = hash(token)
      if (scheme === 'Basic') {
        const userId = accessOwners.get(h)
        return userId ? callerOf(db, userId, 'access_token', token) : null
      }
      const s = sessions.get(h)
      if (!s) return null
      if (s.expiresAt <= now()) {
        sessions.delete(h)
        return null
      }
      return callerOf(db, s.userId, 'session', token, s.impersonatorId)
    },
    sessionFor(email) {
      const wanted = email.trim().toLowerCase()
      const user = db
        .list(USERS_COLLECTION)
        .find((row) => String(row.attributes.email ?? '').toLowerCase() === wanted)
      if (!user) throw new Error(`sandbox: no seeded user with e-mail ${email}`)
      return self.create(user.id)
    },
    snapshot() {
      return {
        sessions: Object.fromEntries(sessions),
        accessTokens: Object.fromEntries(accessTokens),
      }
    },
    restore(snapshot) {
      sessions = new Map(Object.entries(snapshot.sessions))
      accessTokens = new Map(Object.entries(snapshot.accessTokens))
      accessOwners = new Map([...accessTokens].map(([user, h]) => [h, user]))
    },
    clear() {
      sessions = new Map()
      accessTokens = new Map()
      accessOwners = new Map()
    },
  }
  return self
}
