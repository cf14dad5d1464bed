// Test-only: a sandbox with the whole catalog but only the identity and commerce domains, so
// the commerce tests do not depend on the other domains.
import { operations } from '@contract/catalog/index'
import { startSandboxWith, type RunningSandbox } from '../../server'
import { identityDomain } from '../identity/index'
import { commerceDomain } from './index'

export { call } from '../../engine/testing'

/** Starts the sandbox on a free 127.0.0.1 port; log lines go to `log`. */
export function startCommerceSandbox(log: string[] = []): Promise<RunningSandbox> {
  return startSandboxWith(
    { port: 0, testMode: true, log: (line) => log.push(line) },
    { operations, domains: [identityDomain, commerceDomain] },
  )
}
