import type { SandboxDomain } from '../../types'
import { authHandlers } from './auth-handlers'
import { seedIdentity, upgradeIdentity } from './seed'
import { CHALLENGES, LINK_TOKENS } from './tokens'
import { accountHandlers } from './user-account'
import { twoFactorHandlers } from './user-two-factor'
import { ORGANIZATIONS, USERS } from './users'

/**
 * The identity domain: organizations, users, sign-in (with second factor), link tokens and the
 * current-user operations. Challenges and link tokens live in internal collections that no
 * public operation lists.
 */
export const identityDomain: SandboxDomain = {
  name: 'identity',
  collections: {
    [ORGANIZATIONS]: { type: 'organization', prefix: 'org', searchFields: ['name', 'description'] },
    [USERS]: {
      type: 'user',
      prefix: 'usr',
      orgScoped: true,
      searchFields: ['email', 'first_name', 'last_name'],
    },
    [CHALLENGES]: { type: 'otp_challenge', prefix: 'otp' },
    [LINK_TOKENS]: { type: 'link_token', prefix: 'lnk' },
  },
  seed: seedIdentity,
  upgrade: upgradeIdentity,
  handlers: { ...authHandlers, ...twoFactorHandlers, ...accountHandlers },
  tick(ctx) {
    // Forget challenges an hour after they expired, so the state does not grow without end.
    const cutoff = ctx.now().getTime() - 60 * 60_000
    for (const row of ctx.db.list(CHALLENGES)) {
      if (Date.parse(String(row.attributes.expires_at)) < cutoff) ctx.db.remove(CHALLENGES, row.id)
    }
  },
}
