// Where the built pieces sit relative to the built main script (out/main/index.js).
import { join } from 'node:path'

/** The preload script, relative to out/main (electron.vite.config.ts writes it there). */
export const PRELOAD_FROM_MAIN = '../preload/index.js'
/** The built renderer, relative to out/main. */
export const RENDERER_FROM_MAIN = '../renderer'

/** Absolute paths of the preload script and renderer folder for a main script in `mainDir`. */
export function builtPaths(mainDir: string): { preload: string; renderer: string } {
  return { preload: join(mainDir, PRELOAD_FROM_MAIN), renderer: join(mainDir, RENDERER_FROM_MAIN) }
}
