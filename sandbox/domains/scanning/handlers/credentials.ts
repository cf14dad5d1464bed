// Credential handlers: secrets are write-only; only a SHA-256 fingerprint is kept, never returned.
import type { Handlers, SandboxContext } from '../../../types'
import { fingerprint } from '../seed-setup'
import { insertRow, iso, one, orgOf, touch, visible } from '../util'

const SECRET_FIELDS = ['password', 'private_key', 'passphrase', 'community'] as const

/** The secret field each kind needs, and whether it needs a username. */
const NEEDS: Record<string, { secret: (typeof SECRET_FIELDS)[number]; username: boolean }> = {
  ssh_password: { secret: 'password', username: true },
  ssh_key: { secret: 'private_key', username: true },
  windows_smb: { secret: 'password', username: true },
  snmp_community: { secret: 'community', username: false },
}

type Body = Record<string, unknown> & { kind?: string; username?: string }

/** Splits a body into public attributes and the secret fields. */
function split(b: Body): { publicPart: Record<string, unknown>; secrets: Record<string, string> } {
  const publicPart: Record<string, unknown> = {}
  const secrets: Record<string, string> = {}
  for (const [k, v] of Object.entries(b)) {
    if ((SECRET_FIELDS as readonly string[]).includes(k)) secrets[k] = String(v)
    else publicPart[k] = v
  }
  return { publicPart, secrets }
}

function requireFor(
  ctx: SandboxContext,
  kind: string,
  secrets: Record<string, string>,
  username: unknown,
) {
  const need = NEEDS[kind]
  const errors: Record<string, string[]> = {}
  if (!secrets[need.secret]) errors[need.secret] = [`is required for ${kind}`]
  if (need.username && !username) errors.username = [`is required for ${kind}`]
  if (Object.keys(errors).length) ctx.invalid(errors)
}

const secretInternal = (secrets: Record<string, string>) => ({
  secret_fingerprint: fingerprint(JSON.stringify(secrets)),
})

/** Handlers of credential create and update. */
export const credentialHandlers: Handlers = {
  'credentials.create': (req, ctx) => {
    const { publicPart, secrets } = split(req.body)
    requireFor(ctx, String(publicPart.kind), secrets, publicPart.username)
    const row = insertRow(
      ctx,
      'credentials',
      orgOf(req),
      {
        description: null,
        username: null,
        ...publicPart,
        has_secret: true,
        secret_updated_at: iso(ctx),
      },
      secretInternal(secrets),
    )
    return one(req, row, 201)
  },

  'credentials.update': (req, ctx) => {
    const row = visible(ctx, req, 'credentials', req.path.id)
    const { publicPart, secrets } = split(req.body)
    const kind = String(publicPart.kind ?? row.attributes.kind)
    if (kind !== row.attributes.kind) {
      requireFor(ctx, kind, secrets, publicPart.username ?? row.attributes.username)
    }
    const changed = Object.keys(secrets).length > 0
    const updated = touch(
      ctx,
      'credentials',
      row.id,
      { ...publicPart, has_secret: true, ...(changed ? { secret_updated_at: iso(ctx) } : {}) },
      changed ? secretInternal(secrets) : undefined,
    )
    return one(req, updated)
  },
}
