import type { SandboxDomain } from '../../types'
import { COLLECTIONS } from './collections'
import { credentialHandlers } from './handlers/credentials'
import { exceptionHandlers } from './handlers/exceptions'
import { portListHandlers } from './handlers/port-lists'
import { resultHandlers } from './handlers/results'
import { scannerHandlers } from './handlers/scanners'
import { scanHandlers } from './handlers/scans'
import { scheduleHandlers } from './handlers/schedules'
import { targetHandlers } from './handlers/targets'
import { tick } from './scans'
import { seedScanning } from './seed'
import { seedLarge } from './seed-large'

/**
 * The scanning domain: targets, scans and their runs, hosts, vulnerabilities, exceptions,
 * schedules, scanners, port lists, credentials, scan profiles and vulnerability chats.
 */
export const scanningDomain: SandboxDomain = {
  name: 'scanning',
  collections: COLLECTIONS,
  seed: seedScanning,
  seedLarge,
  handlers: {
    ...targetHandlers,
    ...scanHandlers,
    ...resultHandlers,
    ...exceptionHandlers,
    ...scheduleHandlers,
    ...scannerHandlers,
    ...portListHandlers,
    ...credentialHandlers,
  },
  tick,
}
