import type { Settings } from '@contract/channels'
import type { HandlerTable } from './dispatch'
import type { HandlerContext } from './context'
import { readDownloadPreferences, writeDownloadPreferences } from '../exports/preferences'
import { readCacheMaxBytes, writeCacheMaxBytes } from '../offline/settings'
import { readMutedKinds, writeMutedKinds } from '../notifications/watcher'

const THEMES: readonly Settings['theme'][] = ['light', 'dark', 'system']

function read(ctx: HandlerContext): Settings {
  const theme = ctx.settings.get<string>('theme', 'system')
  return {
    theme: (THEMES as readonly string[]).includes(theme) ? (theme as Settings['theme']) : 'system',
    ...readDownloadPreferences(ctx.settings),
    cacheMaxBytes: readCacheMaxBytes(ctx.settings),
    mutedNotificationKinds: readMutedKinds(ctx.settings),
  }
}

/** settings.get / settings.set (partial updates, already validated by dispatch). */
export function settingsHandlers(
  ctx: HandlerContext,
): Pick<HandlerTable, 'settings.get' | 'settings.set'> {
  return {
    'settings.get': async () => read(ctx),
    'settings.set': async (input) => {
      if (input.theme !== undefined) ctx.settings.set('theme', input.theme)
      writeDownloadPreferences(ctx.settings, {
        mismatchAction: input.mismatchAction,
        notifyOnFinish: input.notifyOnFinish,
        maxDownloadBytes: input.maxDownloadBytes,
      })
      writeCacheMaxBytes(ctx.settings, input.cacheMaxBytes)
      writeMutedKinds(ctx.settings, input.mutedNotificationKinds)
      return read(ctx)
    },
  }
}
