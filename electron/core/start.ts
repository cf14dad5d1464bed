// The core's start for Electron main (browser mode and the tests call createCore): the store is
// opened and the keychain asked first, then the rest of the core loads (a dynamic import, its own
// chunk in the bundle) while the keychain answers. Its first answer (keytar loaded, a D-Bus session
// opened, the collection checked: the slowest step of a start with the OS keychain) no longer
// waits for some 700 KB of the core's code to load and run, nor that code for it.
import path from 'node:path'
import { createKeychainVault } from './accounts/keychain-vault'
import { ResilientVault } from './accounts/resilient-vault'
import type { Vault } from './accounts/vault'
import { CoreEvents } from './events'
import type { Core, CoreOptions } from './index'
import { openDatabase, type Db } from './store/database'
import { TombstonesRepo } from './store/tombstones-repo'

/** What the core opens before anything else: its event bus, the store and the vault. */
export interface CoreBasics {
  events: CoreEvents
  db: Db
  vault: Vault
}

/** Opens the store and sets up the vault (the keychain with an in-memory fallback by default). */
export function openBasics(options: CoreOptions): CoreBasics {
  const log = options.log ?? (() => undefined)
  const events = new CoreEvents()
  const db = openDatabase(path.resolve(options.dataDir))
  const vault =
    options.vault ??
    new ResilientVault({
      keychain: () => createKeychainVault(),
      // Deletes the keychain could not take are finished here at the next start (vault.status()).
      tombstones: new TombstonesRepo(db),
      onStatus: (status) => {
        log(status.available ? 'info' : 'warn', status.message ?? 'the system keychain works again')
        events.emit('keychain.status', status)
      },
    })
  return { events, db, vault }
}

/** createCore, with the keychain asked before the rest of the core loads. */
export async function startCore(options: CoreOptions): Promise<Core> {
  const basics = openBasics(options)
  // Checked once per vault: createCore's own vault.status() waits for this same check, and
  // reports what it found.
  void basics.vault.status().catch(() => undefined)
  // Lets the check's first request to the keychain leave before the loading holds the thread.
  await new Promise<void>((resolve) => setImmediate(resolve))
  const { createCore } = await import('./index')
  return createCore(options, basics)
}
