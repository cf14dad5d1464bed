import type { ScanDeskBridge } from '@contract/channels'
import { failure, parseResult, type Transport } from './transport'

/** The Electron host: the preload's `window.scandesk`, one function per channel. */
export function createElectronTransport(api: ScanDeskBridge): Transport {
  return {
    async request(channel, payload) {
      try {
        return parseResult(await api[channel](payload))
      } catch {
        return failure('INTERNAL', 'ScanDesk could not reach its main process.')
      }
    },
    on(event, listener) {
      return api.on(event, listener)
    },
  }
}
