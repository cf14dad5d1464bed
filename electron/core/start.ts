// The core's start for Electron main (browser mode and the tests call createCore): the store is
// opened and the keychain asked first, then the rest of the core loads (a dynamic import, its own
// chunk in the bundle) while the keychain answers. Its first answer (keytar loaded, a D-Bus session
// opened, the collection checked: the slowest step of a start with the OS keychain) no longer
// waits for some 700 KB of the core's code to load and run, nor that code for it.
import { openBasics, type Core, type CoreOptions } from './basics'

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
