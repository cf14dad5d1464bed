import { BrowserWindow, ipcMain, type WebContents, type WebFrameMain } from 'electron'
import {
  CHANNEL_NAMES,
  EVENT_NAMES,
  eventChannel,
  requestChannel,
  type EventName,
} from '@contract/channel-names'
import type { Result } from '@contract/errors'
import type { CoreEvents } from '../core/events'
import type { CallContext } from '../core/handlers/dispatch'
import { isAppUrl } from './origin'

/** What the IPC wiring needs of the core. */
export interface IpcCore {
  dispatch(channel: string, payload: unknown, ctx: CallContext): Promise<string>
  events: CoreEvents
}

/** True only for a live top-level frame showing a page of the app://scandesk origin. */
export function isTrustedSender(frame: WebFrameMain | null | undefined): boolean {
  if (!frame) return false
  if (frame.parent !== null) return false
  return isAppUrl(frame.url)
}

/** True when the sending web contents (by its id) belongs to one of ScanDesk's own windows. */
export function isKnownWindow(sender: WebContents | null | undefined): boolean {
  if (!sender) return false
  return BrowserWindow.getAllWindows().some(
    (window) => !window.isDestroyed() && window.webContents.id === sender.id,
  )
}

const REFUSED: Result<never> = {
  ok: false,
  error: { code: 'FORBIDDEN', message: 'This page may not call ScanDesk.' },
}

/** Picks the windows an event goes to; null sends it to every window. */
export type EventRoute = (name: EventName) => readonly BrowserWindow[] | null

/**
 * Wires every request channel to core.dispatch (after the sender-frame check) and forwards every
 * core event to all windows (or those `route` picks). Returns a function that undoes both.
 */
export function registerIpc(
  core: IpcCore,
  log: (level: 'warn', message: string) => void = () => {},
  route: EventRoute = () => null,
): () => void {
  for (const name of CHANNEL_NAMES) {
    ipcMain.handle(requestChannel(name), async (event, payload: unknown) => {
      if (!isTrustedSender(event.senderFrame) || !isKnownWindow(event.sender)) {
        log('warn', `refused ${name} from a frame outside app://scandesk or a window not ours`)
        return JSON.stringify(REFUSED)
      }
      return core.dispatch(name, payload, { origin: 'electron' })
    })
  }
  const off = core.events.onAny((name, payload) => {
    for (const window of route(name) ?? BrowserWindow.getAllWindows()) {
      if (!window.isDestroyed()) window.webContents.send(eventChannel(name), payload)
    }
  }, EVENT_NAMES)
  return () => {
    off()
    for (const name of CHANNEL_NAMES) ipcMain.removeHandler(requestChannel(name))
  }
}
