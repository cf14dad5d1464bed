import fsp from 'node:fs/promises'
import path from 'node:path'
import { AUDIT_BUILDING_NAME, EVIDENCE_FOLDER, PARTIAL_NAME } from './names'

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

/** The real folders (no links) directly inside `folder`; none when it cannot be read. */
async function realSubfolders(folder: string): Promise<string[]> {
  let names: string[]
  try {
    names = await fsp.readdir(folder)
  } catch {
    return []
  }
  const out: string[] = []
  for (const name of names) {
    const inner = path.join(folder, name)
    const stat = await fsp.lstat(inner).catch(() => null)
    if (stat?.isDirectory()) out.push(inner)
  }
  return out
}

/**
 * Removes what a crash or a kill left in accounts' SAQ folders (`<download folder>/SAQ`); call at
 * start, before anything writes there. Audit bundles still under their temporary name
 * (`.Audit <date time>.<12 hex>.building`: the rename to `Audit <date time>` is their last step)
 * are removed whole, if they are real folders (a link with that name is left alone); the partial
 * copies of evidence files (`.<name>.<12 hex>.partial`) are removed from `Evidence/`, its SAQ
 * folders and their requirement folders, reached without following a link. A finished
 * `Audit …` folder is never touched. Returns what was removed.
 */
export async function removeSaqLeftovers(saqFolders: readonly string[]): Promise<string[]> {
  const removed: string[] = []
  for (const folder of new Set(saqFolders.map((f) => path.resolve(f)))) {
    for (const inner of await realSubfolders(folder)) {
      if (!AUDIT_BUILDING_NAME.test(path.basename(inner))) continue
      try {
        await fsp.rm(inner, { recursive: true })
        removed.push(inner)
      } catch {
        // Not ours to remove after all (permissions): left as it is.
      }
    }
    const evidence = path.join(folder, EVIDENCE_FOLDER)
    const root = await fsp.lstat(evidence).catch(() => null)
    if (!root?.isDirectory()) continue
    const saqs = await realSubfolders(evidence)
    const requirements = (await Promise.all(saqs.map(realSubfolders))).flat()
    removed.push(...(await removeStalePartials([evidence, ...saqs, ...requirements])))
  }
  return removed
}
