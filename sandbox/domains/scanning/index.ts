import type { SandboxDomain } from '../../types'

/** The scanning domain of the sandbox (being built). */
export const scanningDomain: SandboxDomain = {
  name: 'scanning',
  collections: {},
  seed() {},
  handlers: {},
}
