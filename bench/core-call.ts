// Bench helper: one channel request through the core, typed by the contract's channel map, so a
// change of a channel's payload or answer is a compile error here (tsc -p tsconfig.node.json
// checks bench/), not an undefined read at run time.
import type { ChannelName } from '@contract/channel-names'
import type { ChannelInput, ChannelOutput } from '@contract/channels'
import type { Result } from '@contract/errors'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MemoryVault } from '../electron/core/accounts/memory-vault'
import { createCore, type Core } from '../electron/core/index'

/** Dispatches `channel` as the browser bridge does; resolves with its data or throws its error. */
export async function callChannel<C extends ChannelName>(
  core: Core,
  channel: C,
  payload: ChannelInput<C>,
): Promise<ChannelOutput<C>> {
  const text = await core.dispatch(channel, payload, { origin: 'browser' })
  const result = JSON.parse(text) as Result<ChannelOutput<C>>
  if (!result.ok) throw new Error(`${channel}: ${result.error.message} (${result.error.code})`)
  return result.data
}

/** A core on a fresh data folder (in-memory vault), and the function that closes and removes it. */
export async function startBenchCore(): Promise<{ core: Core; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-bench-'))
  const core = await createCore({
    dataDir,
    mode: 'browser',
    version: 'bench',
    vault: new MemoryVault(),
    // No notification rounds: their requests would land inside the timed calls.
    notificationIntervalMs: 0,
  })
  return {
    core,
    async close() {
      await core.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Adds the sandbox's analyst (no second factor) at `baseUrl`; returns the account id. */
export async function addBenchAccount(
  core: Core,
  baseUrl: string,
  apiKey: string,
): Promise<string> {
  const added = await callChannel(core, 'accounts.add', {
    label: 'Bench',
    baseUrl,
    apiKey,
    username: 'analyst@sandbox.test',
    password: 'sandbox-password',
    release: 'latest',
    color: '#336699',
  })
  // accounts.add answers a SignInOutcome; the seeded analyst has no second factor.
  if (added.status !== 'signedIn')
    throw new Error('could not add the bench account: the sandbox asked for a second factor')
  return added.account.id
}
