// Test-only: starts the real engine with the scanning domain and a minimal identity stand-in
// (three users, three organizations), so these tests do not depend on the identity domain.
import { operations } from '@contract/catalog/index'
import { startSandboxWith, type RunningSandbox } from '../../server'
import type { SandboxDomain } from '../../types'
import { scanningDomain } from './index'

export { call } from '../../engine/testing'

/** A resource as answers carry it (attributes read loosely by the tests). */
export interface Resource {
  id: string
  type: string
  attributes: Record<string, unknown>
}

const identityStandIn: SandboxDomain = {
  name: 'identity-stand-in',
  collections: {
    users: { type: 'user', prefix: 'usr' },
    organizations: { type: 'organization', prefix: 'org' },
  },
  seed(ctx) {
    for (const name of ['Acme Payments', 'Globex Retail', 'Initech']) {
      ctx.db.insert('organizations', {
        id: ctx.db.nextId('org'),
        type: 'organization',
        attributes: { name },
      })
    }
    const users: [string, string, string][] = [
      ['admin@sandbox.test', 'administrator', 'org-001'],
      ['analyst@sandbox.test', 'analyst', 'org-001'],
      ['customer@globex.test', 'customer', 'org-002'],
    ]
    for (const [email, role, organization_id] of users) {
      ctx.db.insert('users', {
        id: ctx.db.nextId('usr'),
        type: 'user',
        attributes: { email, role, organization_id },
      })
    }
  },
  handlers: {},
}

/** A sandbox on 127.0.0.1 with the scanning domain. */
export function startScanningSandbox(): Promise<RunningSandbox> {
  return startSandboxWith(
    { port: 0, testMode: true, log: () => {} },
    { operations, domains: [identityStandIn, scanningDomain] },
  )
}
