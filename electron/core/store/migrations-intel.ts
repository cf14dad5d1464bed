// Migrations of issue 37 (exploit intelligence, asset context), kept apart so migrations.ts stays
// small; migrations.ts appends them in order. Append only: never edit one that has shipped.
import type { Migration } from './migrations'

export const INTEL_MIGRATIONS: readonly Migration[] = [
  {
    version: 19,
    name: 'exploit intelligence packs',
    up(db) {
      // KEV catalogs and EPSS scores (issue 37 §1): public data, not an account's, so plain. A
      // pack's provenance in intel_packs; its rows in a table per feed, gone with the pack. The
      // newest pack of a feed is current; the one before it is kept to tell what changed.
      db.exec(`
        CREATE TABLE intel_packs (
          id INTEGER PRIMARY KEY,
          feed TEXT NOT NULL CHECK (feed IN ('kev', 'epss')),
          edition TEXT NOT NULL,
          published TEXT NOT NULL,
          sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
          bytes INTEGER NOT NULL CHECK (bytes >= 0),
          entries INTEGER NOT NULL CHECK (entries >= 0),
          imported_at TEXT NOT NULL,
          source TEXT NOT NULL
        ) STRICT;
        CREATE TABLE intel_kev (
          pack_id INTEGER NOT NULL REFERENCES intel_packs(id) ON DELETE CASCADE,
          cve TEXT NOT NULL,
          date_added TEXT NOT NULL,
          due_date TEXT NOT NULL,
          ransomware INTEGER NOT NULL CHECK (ransomware IN (0, 1)),
          name TEXT,
          PRIMARY KEY (pack_id, cve)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE intel_epss (
          pack_id INTEGER NOT NULL REFERENCES intel_packs(id) ON DELETE CASCADE,
          cve TEXT NOT NULL,
          epss REAL NOT NULL CHECK (epss BETWEEN 0 AND 1),
          percentile REAL NOT NULL CHECK (percentile BETWEEN 0 AND 1),
          PRIMARY KEY (pack_id, cve)
        ) STRICT, WITHOUT ROWID;
      `)
    },
  },
  {
    version: 20,
    name: 'asset context',
    up(db) {
      // An account's asset context (issue 37 §2): its rules and its targets' and hosts' settings,
      // one row per account sealed with the account's key (bound to the account); in clear only
      // when it was saved. Owners, patterns, ranges, tags, target ids and host addresses are all
      // inside the sealed blob. Gone with the account.
      db.exec(`
        CREATE TABLE asset_context (
          account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
          saved_at TEXT NOT NULL,
          sealed BLOB NOT NULL
        ) STRICT;
      `)
    },
  },
]
