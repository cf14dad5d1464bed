import type { SandboxDomain } from '../../types'

/** The identity domain of the sandbox (being built). */
export const identityDomain: SandboxDomain = {
  name: 'identity',
  collections: {},
  seed() {},
  handlers: {},
}
