import { actionSource, recentSource, screenSource } from './localSources'
import { recordSources } from './recordSources'
import type { PaletteSourceFactory } from './types'

/**
 * What the palette offers, in the order it shows the groups. Saved views (issue 19, section 2)
 * are one more entry: a LocalSource listing the account's views (`to` their address), placed
 * after the screens.
 */
export const PALETTE_SOURCES: readonly PaletteSourceFactory[] = [
  recentSource,
  actionSource,
  screenSource,
  recordSources,
]
