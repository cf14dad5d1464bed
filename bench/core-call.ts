// Bench helper: one channel request through the core, typed by the contract's channel map, so a
// change of a channel's payload or answer is a compile error here (tsc -p tsconfig.node.json
// checks bench/), not an undefined read at run time.
import type { ChannelName } from '@contract/channel-names'
import type { ChannelInput, ChannelOutput } from '@contract/channels'
import type { Result } from '@contract/errors'
import type { Core } from '../electron/core/index'

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
