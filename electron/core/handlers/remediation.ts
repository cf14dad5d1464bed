import { AppFailure } from '@contract/errors'
import type { RemediationRepo } from '../store/remediation-repo'
import type { HandlerTable } from './dispatch'

const GONE = {
  code: 'UNKNOWN_ACCOUNT',
  message: 'This account is no longer in ScanDesk.',
} as const

/** remediation.get / set: an account's remediation policy (issue 20), kept in main. */
export function remediationHandlers(
  repo: RemediationRepo,
  accountExists: (accountId: string) => boolean,
): Pick<HandlerTable, 'remediation.get' | 'remediation.set'> {
  const known = (accountId: string) => {
    if (!accountExists(accountId)) throw new AppFailure({ ...GONE })
  }
  return {
    'remediation.get': async ({ accountId }) => {
      known(accountId)
      return repo.get(accountId)
    },
    'remediation.set': async ({ accountId, policy, notify }) => {
      known(accountId)
      const saved = repo.set(accountId, { policy, notify })
      if (!saved) throw new AppFailure({ ...GONE })
      return saved
    },
  }
}
