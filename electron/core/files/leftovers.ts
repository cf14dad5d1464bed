import fsp from 'node:fs/promises'
import path from 'node:path'
import { PARTIAL_NAME } from './download'

/**
 * Removes the temp files (`.<name>.<12 hex>.partial`) that downloads interrupted by a crash or a
 * kill left directly inside `folders`; call at start, before any download runs. Only regular
 * files whose name matches the pattern are removed (not links, not folders, nothing below the
 * folders themselves); a folder that is gone or unreadable is skipped. Returns what was removed.
 */
export async function removeStalePartials(folders: readonly string[]): Promise<string[]> {
  const removed: string[] = []
  for (const folder of new Set(folders.map((f) => path.resolve(f)))) {
    let names: string[]
    try {
      names = await fsp.readdir(folder)
    } catch {
      continue
    }
    for (const name of names) {
      if (!PARTIAL_NAME.test(name)) continue
      const file = path.join(folder, name)
      try {
        if (!(await fsp.lstat(file)).isFile()) continue
        await fsp.unlink(file)
        removed.push(file)
      } catch {
        // Gone already, or not ours to remove: left as it is.
      }
    }
  }
  return removed
}
