// A database of its own for each test of a repository: made in a temporary folder before each
// test with the given accounts stored (each labelled with its id), closed and removed after it.
// Read the fields inside tests and later hooks (they are set by the beforeEach).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { AccountsRepo } from './accounts-repo'
import { openDatabase, type Db } from './database'
import { accountRow } from './test-account'

export interface TestDb {
  /** The folder of the database. */
  dir: string
  db: Db
  /** Closes the database and opens it again from its folder, as a restart would. */
  reopen(): void
}

/** A fresh database per test; `prefix` names its temporary folder. */
export function useTestDb(prefix: string, accountIds: readonly string[] = []): TestDb {
  const t: TestDb = {
    dir: '',
    db: null as unknown as Db,
    reopen() {
      t.db.close()
      t.db = openDatabase(t.dir)
    },
  }
  beforeEach(() => {
    t.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
    t.db = openDatabase(t.dir)
    const accounts = new AccountsRepo(t.db)
    for (const id of accountIds) accounts.insert(accountRow({ id, label: id }))
  })
  afterEach(() => {
    t.db.close()
    fs.rmSync(t.dir, { recursive: true, force: true })
  })
  return t
}
