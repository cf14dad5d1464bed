import type { SandboxDomain } from '../../types'

/** The reporting domain of the sandbox (being built). */
export const reportingDomain: SandboxDomain = {
  name: 'reporting',
  collections: {},
  seed() {},
  handlers: {},
}
