import type { OperationDef } from '@contract/catalog/types'
import { ServiceFailure } from './errors'

/** What a service says when it has no such route (the sandbox's words, and common ones). */
const NO_ROUTE =
  /no route|does not exist in release|unknown (?:endpoint|operation|route|path)|not (?:a )?supported (?:endpoint|operation)/i

/**
 * A 404 for an operation the account's release has, read as "the service lacks the operation":
 * the account is set to a newer release than its service. Only where a 404 cannot mean a missing
 * record — an operation with neither path parameters nor a body — or where the service says it
 * has no route.
 * Any other 404 stays "could not find that record". Null when `failure` is not such a 404.
 */
export function missingOperation(
  failure: unknown,
  op: OperationDef,
  release: string,
): ServiceFailure | null {
  if (!(failure instanceof ServiceFailure)) return null
  if (failure.error.code !== 'NOT_FOUND' || failure.error.status !== 404) return null
  // A path parameter or a body can name a record (impersonate's user_id) that is missing.
  const namesRecord = /\{[^}]+\}/.test(op.path) || op.body != null
  if (namesRecord && !NO_ROUTE.test(failure.serviceDetail ?? '')) return null
  return new ServiceFailure(
    {
      code: 'RELEASE_MISMATCH',
      status: 404,
      message: `The service does not offer “${op.summary}”, which release ${release} has: this account may be set to a newer release than its service runs. Detect the release to use what the service really offers.`,
    },
    failure.serviceDetail,
  )
}
