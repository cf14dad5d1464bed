import type { Caller, SandboxContext, SandboxRequest } from '../../types'
import { can } from '../identity/permissions'
import { callerOf } from './store'

/**
 * Permission checks of the commerce operations. The permission strings are the identity
 * domain's (what GET /v2/user/permissions shows), so the UI and the sandbox agree:
 * users.read / users.write (managers and administrators), users.delete, organizations.* and
 * billing.* (administrators).
 */

/** The caller, or a 403 naming the missing permission. */
export function requirePermission(
  req: SandboxRequest,
  ctx: SandboxContext,
  permission: string,
): Caller {
  const caller = callerOf(req, ctx)
  if (!can(caller.role, permission)) {
    ctx.error(403, `Your role (${caller.role}) does not have the permission ${permission}`)
  }
  return caller
}
