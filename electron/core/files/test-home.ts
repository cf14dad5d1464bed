// The world of the save-where-the-user-chose tests (save-target.test.ts, views-file.test.ts): a
// temporary root holding the user's only folder (`home`) and a real SQLite database, made before
// each test and removed after it, with the host and download folders that see that home. Read the
// fields inside tests (they are set by the beforeEach).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { DownloadFolders } from '../exports/folders'
import { headlessHost, type HostServices } from '../host'
import { openDatabase, type Db } from '../store/database'
import { SettingsRepo } from '../store/settings-repo'

export interface TestHome {
  /** The temporary root (home, the database and anything else a test makes in it). */
  root: string
  /** The user's only folder, inside root. */
  home: string
  db: Db
  /** The headless host with home as the user's folders, `extra` over it. */
  host(extra?: Partial<HostServices>): HostServices
  /** The download folders on the database, home as the user's folders. */
  folders(): DownloadFolders
}

/** A fresh root, home and database per test; `prefix` names the temporary folder. */
export function useTestHome(prefix: string): TestHome {
  const t: TestHome = {
    root: '',
    home: '',
    db: null as unknown as Db,
    host: (extra = {}) => ({ ...headlessHost, userFolders: () => [t.home], ...extra }),
    folders: () => new DownloadFolders(new SettingsRepo(t.db), () => [t.home]),
  }
  beforeEach(() => {
    t.root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
    t.home = path.join(t.root, 'home')
    fs.mkdirSync(t.home)
    t.db = openDatabase(path.join(t.root, 'data'))
  })
  afterEach(() => {
    t.db.close()
    fs.rmSync(t.root, { recursive: true, force: true })
  })
  return t
}
