import type { SandboxDomain } from '../../types'

/** The commerce domain of the sandbox (being built). */
export const commerceDomain: SandboxDomain = {
  name: 'commerce',
  collections: {},
  seed() {},
  handlers: {},
}
