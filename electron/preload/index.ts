// Sandboxed preload: exposes window.scandesk (one function per channel, plus `on`) and nothing else.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import {
  CHANNEL_NAMES,
  EVENT_NAMES,
  eventChannel,
  requestChannel,
  type EventName,
} from '@contract/channel-names'
import type { ScanDeskBridge } from '@contract/channels'

type Ipc = Pick<typeof ipcRenderer, 'invoke' | 'on' | 'removeListener'>

/** Builds the bridge over an ipcRenderer: named channel functions and a payload-only `on`. */
export function createBridge(ipc: Ipc): ScanDeskBridge {
  const api: Record<string, unknown> = {}
  for (const name of CHANNEL_NAMES) {
    api[name] = (payload: unknown) => ipc.invoke(requestChannel(name), payload) as Promise<string>
  }
  api.on = (event: EventName, listener: (payload: unknown) => void) => {
    if (!(EVENT_NAMES as readonly string[]).includes(event))
      throw new Error(`Unknown ScanDesk event "${String(event)}"`)
    if (typeof listener !== 'function') throw new Error('The listener must be a function')
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload)
    ipc.on(eventChannel(event), forward)
    return () => {
      ipc.removeListener(eventChannel(event), forward)
    }
  }
  return Object.freeze(api) as ScanDeskBridge
}

contextBridge.exposeInMainWorld('scandesk', createBridge(ipcRenderer))
