import { actionSource, recentSource, savedViewSource, screenSource } from './localSources'
import { recordSources } from './recordSources'
import type { PaletteSourceFactory } from './types'

/** What the palette offers, in the order it shows the groups. */
export const PALETTE_SOURCES: readonly PaletteSourceFactory[] = [
  recentSource,
  actionSource,
  screenSource,
  savedViewSource,
  recordSources,
]
