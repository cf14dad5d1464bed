// The temp files of atomic writes into folders the start-up sweep does not read (a CSV or views
// file saved anywhere in the user's folders, not only in a download folder): each is noted in the
// settings before it is created and forgotten once it took its name or was removed, so the next
// start removes the ones a crash or a kill left behind (issue 41, hard kills).
import fsp from 'node:fs/promises'
import path from 'node:path'
import type { SettingsRepo } from '../store/settings-repo'
import { PARTIAL_NAME } from './names'

/** Where an atomic write notes its temp file while it exists (writeAtomically's `journal`). */
export interface TempJournal {
  add(temp: string): void
  remove(temp: string): void
}

const KEY = 'atomic_writes_pending'
/** Notes kept at most: one per write in flight; beyond that the oldest are dropped. */
const MAX_NOTED = 50

/** The temp files of writes in flight, in the settings table (one synchronous write a note). */
export class PendingTemps implements TempJournal {
  constructor(private readonly settings: SettingsRepo) {}

  /** The temp files noted now (of writes in flight, or of writes a kill stopped). */
  noted(): string[] {
    const value = this.settings.get<unknown>(KEY, [])
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  }

  /** Notes a temp file about to be created (its folder a real path). */
  add(temp: string): void {
    this.settings.set(KEY, [...this.noted().filter((t) => t !== temp), temp].slice(-MAX_NOTED))
  }

  /** Forgets a temp file that took its name or was removed. */
  remove(temp: string): void {
    const left = this.noted().filter((t) => t !== temp)
    this.settings.set(KEY, left.length ? left : undefined)
  }

  /**
   * Removes the temp files still noted and forgets them all; call at start, before anything
   * writes. Only a regular file with a temp file's name (`PARTIAL_NAME`) whose folder still is
   * the real folder it was noted in is removed (not a link, nothing reached through one).
   * Returns what was removed.
   */
  async sweep(): Promise<string[]> {
    const removed: string[] = []
    for (const temp of this.noted()) {
      if (!path.isAbsolute(temp) || !PARTIAL_NAME.test(path.basename(temp))) continue
      try {
        if ((await fsp.realpath(path.dirname(temp))) !== path.dirname(temp)) continue
        if (!(await fsp.lstat(temp)).isFile()) continue
        await fsp.unlink(temp)
        removed.push(temp)
      } catch {
        // Gone already (the write ended, or the user removed it), or not ours to remove.
      }
    }
    this.settings.set(KEY, undefined)
    return removed
  }
}
