import type Database from 'better-sqlite3'
import { INTEL_MIGRATIONS } from './migrations-intel'

/** One numbered schema change; `up` runs inside a transaction, exactly once per database. */
export interface Migration {
  version: number
  name: string
  up(db: Database.Database): void
}

/** Every migration, in order. Append only: never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts and settings',
    up(db) {
      db.exec(`
        CREATE TABLE accounts (
          id TEXT PRIMARY KEY,
          label TEXT NOT NULL,
          base_url TEXT NOT NULL,
          username TEXT NOT NULL,
          release TEXT NOT NULL,
          color TEXT NOT NULL,
          auth_method TEXT NOT NULL CHECK (auth_method IN ('password', 'access_token')),
          is_demo INTEGER NOT NULL DEFAULT 0 CHECK (is_demo IN (0, 1)),
          allow_insecure_http INTEGER NOT NULL DEFAULT 0 CHECK (allow_insecure_http IN (0, 1)),
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE settings (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL CHECK (json_valid(value))
        ) STRICT;
      `)
    },
  },
  {
    version: 2,
    name: 'export jobs and file ledger',
    up(db) {
      // Jobs belong to an account and go with it. Ledger rows stay when the account is removed:
      // the files stay on disk, so the record of what they are stays too (with the label the
      // account had when the file was downloaded).
      db.exec(`
        CREATE TABLE export_jobs (
          id TEXT PRIMARY KEY,
          account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          kind TEXT NOT NULL CHECK (kind IN ('report', 'advanced_report')),
          resource_id TEXT NOT NULL,
          resource_name TEXT NOT NULL,
          format TEXT NOT NULL CHECK (format IN ('pdf', 'csv')),
          state TEXT NOT NULL CHECK (state IN ('queued', 'generating', 'ready', 'downloading',
            'verifying', 'verified', 'mismatch', 'failed', 'cancelled')),
          phase TEXT NOT NULL DEFAULT 'generate' CHECK (phase IN ('generate', 'download', 'verify')),
          error TEXT CHECK (error IS NULL OR json_valid(error)),
          target_path TEXT,
          path TEXT,
          sha256 TEXT,
          ledger_id TEXT,
          generation_started_at TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX export_jobs_account ON export_jobs (account_id, created_at);
        CREATE INDEX export_jobs_state ON export_jobs (state);
        CREATE TABLE file_ledger (
          id TEXT PRIMARY KEY,
          account_id TEXT NOT NULL,
          account_label TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('report', 'advanced_report')),
          resource_id TEXT NOT NULL,
          resource_name TEXT NOT NULL,
          format TEXT NOT NULL CHECK (format IN ('pdf', 'csv')),
          path TEXT NOT NULL,
          size INTEGER NOT NULL CHECK (size >= 0),
          sha256 TEXT NOT NULL,
          verdict TEXT NOT NULL CHECK (verdict IN ('verified', 'mismatch', 'unverified', 'missing',
            'changed')),
          detail TEXT,
          downloaded_at TEXT NOT NULL,
          verified_at TEXT
        ) STRICT;
        CREATE INDEX file_ledger_account ON file_ledger (account_id, downloaded_at);
      `)
    },
  },
  {
    version: 3,
    name: 'account sign-in options',
    up(db) {
      // Not secrets: the CA bundle is public certificates; remember_password only says whether
      // the keychain holds the password; impersonating is {userId, email, since} as JSON.
      db.exec(`
        ALTER TABLE accounts ADD COLUMN ca_bundle TEXT NULL;
        ALTER TABLE accounts ADD COLUMN remember_password INTEGER NOT NULL DEFAULT 0
          CHECK (remember_password IN (0, 1));
        ALTER TABLE accounts ADD COLUMN impersonating TEXT NULL
          CHECK (impersonating IS NULL OR json_valid(impersonating));
      `)
    },
  },
  {
    version: 4,
    name: 'drafts',
    up(db) {
      // Work in progress the user must not lose (a scan wizard, an SAQ being filled): one row per
      // account, kind and key, gone with its account.
      db.exec(`
        CREATE TABLE drafts (
          account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          kind TEXT NOT NULL CHECK (kind IN ('scan-wizard', 'saq')),
          key TEXT NOT NULL,
          data TEXT NOT NULL CHECK (json_valid(data)),
          saved_at TEXT NOT NULL,
          PRIMARY KEY (account_id, kind, key)
        ) STRICT;
      `)
    },
  },
  {
    version: 5,
    name: 'SAQ files in export jobs and the file ledger',
    up(db) {
      // SQLite cannot change a CHECK constraint, so both tables are rebuilt (every row, index and
      // foreign key kept). Jobs may download an SAQ's PDF (kind 'saq', with the SAQ's facts as JSON
      // for its file name and ledger entry); the ledger records SAQ PDFs and evidence files
      // (kind 'saq_evidence', format 'file'), the 'recorded' verdict (hash recorded at arrival, no
      // service check exists), and the SAQ's type and status, and the requirement of evidence.
      db.exec(`
        CREATE TABLE export_jobs_v5 (
          id TEXT PRIMARY KEY,
          account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          kind TEXT NOT NULL CHECK (kind IN ('report', 'advanced_report', 'saq')),
          resource_id TEXT NOT NULL,
          resource_name TEXT NOT NULL,
          format TEXT NOT NULL CHECK (format IN ('pdf', 'csv')),
          state TEXT NOT NULL CHECK (state IN ('queued', 'generating', 'ready', 'downloading',
            'verifying', 'verified', 'mismatch', 'failed', 'cancelled')),
          phase TEXT NOT NULL DEFAULT 'generate' CHECK (phase IN ('generate', 'download', 'verify')),
          error TEXT CHECK (error IS NULL OR json_valid(error)),
          target_path TEXT,
          path TEXT,
          sha256 TEXT,
          ledger_id TEXT,
          generation_started_at TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          saq_facts TEXT CHECK (saq_facts IS NULL OR json_valid(saq_facts))
        ) STRICT;
        INSERT INTO export_jobs_v5 (id, account_id, kind, resource_id, resource_name, format, state,
            phase, error, target_path, path, sha256, ledger_id, generation_started_at, created_at,
            updated_at)
          SELECT id, account_id, kind, resource_id, resource_name, format, state, phase, error,
            target_path, path, sha256, ledger_id, generation_started_at, created_at, updated_at
          FROM export_jobs;
        DROP TABLE export_jobs;
        ALTER TABLE export_jobs_v5 RENAME TO export_jobs;
        CREATE INDEX export_jobs_account ON export_jobs (account_id, created_at);
        CREATE INDEX export_jobs_state ON export_jobs (state);

        CREATE TABLE file_ledger_v5 (
          id TEXT PRIMARY KEY,
          account_id TEXT NOT NULL,
          account_label TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('report', 'advanced_report', 'saq', 'saq_evidence')),
          resource_id TEXT NOT NULL,
          resource_name TEXT NOT NULL,
          format TEXT NOT NULL CHECK (format IN ('pdf', 'csv', 'file')),
          path TEXT NOT NULL,
          size INTEGER NOT NULL CHECK (size >= 0),
          sha256 TEXT NOT NULL,
          verdict TEXT NOT NULL CHECK (verdict IN ('verified', 'recorded', 'mismatch', 'unverified',
            'missing', 'changed')),
          detail TEXT,
          downloaded_at TEXT NOT NULL,
          verified_at TEXT,
          saq_type TEXT,
          saq_status TEXT,
          requirement TEXT
        ) STRICT;
        INSERT INTO file_ledger_v5 (id, account_id, account_label, kind, resource_id, resource_name,
            format, path, size, sha256, verdict, detail, downloaded_at, verified_at)
          SELECT id, account_id, account_label, kind, resource_id, resource_name, format, path,
            size, sha256, verdict, detail, downloaded_at, verified_at
          FROM file_ledger;
        DROP TABLE file_ledger;
        ALTER TABLE file_ledger_v5 RENAME TO file_ledger;
        CREATE INDEX file_ledger_account ON file_ledger (account_id, downloaded_at);
        CREATE INDEX file_ledger_saq ON file_ledger (account_id, kind, resource_id);
      `)
    },
  },
  {
    version: 6,
    name: 'keychain tombstones',
    up(db) {
      // A secret that was deleted here but could not be deleted from the OS keychain (it was
      // unreachable): the delete is finished at the next start. Names only, never a secret; no
      // foreign key, because a removed account's secrets must still go.
      db.exec(`
        CREATE TABLE keychain_tombstones (
          account_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          created_at TEXT NOT NULL,
          PRIMARY KEY (account_id, kind)
        ) STRICT;
      `)
    },
  },
  {
    version: 7,
    name: 'outbox',
    up(db) {
      // Writes kept while the service could not be reached (catalog policy "queue"), replayed in
      // `seq` order per account. They go with their account; a refused one stays (state 'failed',
      // its error as JSON) until the user retries or discards it.
      db.exec(`
        CREATE TABLE outbox (
          id TEXT PRIMARY KEY,
          seq INTEGER NOT NULL UNIQUE,
          account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          account_label TEXT NOT NULL,
          op TEXT NOT NULL,
          input TEXT NOT NULL CHECK (json_valid(input)),
          target TEXT,
          state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'failed')),
          error TEXT CHECK (error IS NULL OR json_valid(error)),
          attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
          created_at TEXT NOT NULL,
          last_tried_at TEXT
        ) STRICT;
        CREATE INDEX outbox_account ON outbox (account_id, seq);
      `)
    },
  },
  {
    version: 8,
    name: 'when evidence was re-pointed',
    up(db) {
      // Evidence moved from a draft's key to an SAQ id (saq.evidence.link) records when, so an
      // audit bundle can flag evidence that joined an SAQ after its approval. Existing rows keep
      // NULL: their attach time is the best there is.
      db.exec(`ALTER TABLE file_ledger ADD COLUMN linked_at TEXT`)
    },
  },
  {
    version: 9,
    name: 'drafts and outbox sealed',
    up(db) {
      // Drafts and queued writes were plain text beside an encrypted offline copy. From now on
      // each row is sealed with its account's key (AES-256-GCM, bound to what the row is):
      // `sealed` holds the draft's data, or the outbox item's input, target and error. Rows written
      // before stay readable in their plain columns until their account's key is at hand; the
      // core then seals them (store/sealing.ts) and empties the plain columns. A keychain that
      // does not answer leaves them as they are: never deleted, never sealed under a new key.
      // SQLite cannot relax NOT NULL, so both tables are rebuilt (rows, keys and indexes kept).
      db.exec(`
        CREATE TABLE drafts_v9 (
          account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          kind TEXT NOT NULL CHECK (kind IN ('scan-wizard', 'saq')),
          key TEXT NOT NULL,
          sealed BLOB,
          data TEXT CHECK (data IS NULL OR json_valid(data)),
          saved_at TEXT NOT NULL,
          PRIMARY KEY (account_id, kind, key),
          CHECK ((sealed IS NULL) <> (data IS NULL))
        ) STRICT;
        INSERT INTO drafts_v9 (account_id, kind, key, data, saved_at)
          SELECT account_id, kind, key, data, saved_at FROM drafts;
        DROP TABLE drafts;
        ALTER TABLE drafts_v9 RENAME TO drafts;

        CREATE TABLE outbox_v9 (
          id TEXT PRIMARY KEY,
          seq INTEGER NOT NULL UNIQUE,
          account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          account_label TEXT NOT NULL,
          op TEXT NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'failed')),
          attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
          created_at TEXT NOT NULL,
          last_tried_at TEXT,
          sealed BLOB,
          input TEXT CHECK (input IS NULL OR json_valid(input)),
          target TEXT,
          error TEXT CHECK (error IS NULL OR json_valid(error)),
          CHECK ((sealed IS NULL) <> (input IS NULL))
        ) STRICT;
        INSERT INTO outbox_v9 (id, seq, account_id, account_label, op, state, attempts, created_at,
            last_tried_at, input, target, error)
          SELECT id, seq, account_id, account_label, op, state, attempts, created_at,
            last_tried_at, input, target, error
          FROM outbox;
        DROP TABLE outbox;
        ALTER TABLE outbox_v9 RENAME TO outbox;
        CREATE INDEX outbox_account ON outbox (account_id, seq);
      `)
    },
  },
  {
    version: 10,
    name: 'offline copy locked at sign-out',
    up(db) {
      // Set when the user signs out (the copy of a signed-out account is not served); cleared at
      // the next sign-in. A session the service ended leaves it unset: what was opened before stays
      // readable, marked as the copy, while the user signs in again.
      db.exec(
        `ALTER TABLE accounts ADD COLUMN copy_locked INTEGER NOT NULL DEFAULT 0 CHECK (copy_locked IN (0, 1))`,
      )
    },
  },
  {
    version: 11,
    name: 'run snapshots',
    up(db) {
      // A snapshot of a scan's findings as one run saw them (issue 19): the exact comparison of
      // any two runs. One row per run, sealed with the account's key (deflated JSON, bound to
      // account, scan and run); in clear only what lists and retention need: ids, times, the
      // number of findings and the sealed size. Retention: store/snapshots-repo.ts.
      db.exec(`
        CREATE TABLE run_snapshots (
          account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          scan_id TEXT NOT NULL,
          run_id TEXT NOT NULL,
          finished_at TEXT NOT NULL,
          taken_at TEXT NOT NULL,
          findings INTEGER NOT NULL CHECK (findings >= 0),
          bytes INTEGER NOT NULL CHECK (bytes >= 0),
          sealed BLOB NOT NULL,
          PRIMARY KEY (account_id, scan_id, run_id)
        ) STRICT;
        CREATE INDEX run_snapshots_age ON run_snapshots (account_id, finished_at);
      `)
    },
  },
  {
    version: 12,
    name: 'saved views kept with the drafts',
    up(db) {
      // An account's saved views of its lists (issue 19) are one sealed JSON document kept like a
      // draft (kind 'saved-views'): per account, sealed with its key, one statement a save, gone
      // with the account. SQLite cannot change a CHECK, so the table is rebuilt (rows kept).
      db.exec(`
        CREATE TABLE drafts_v12 (
          account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          kind TEXT NOT NULL CHECK (kind IN ('scan-wizard', 'saq', 'saved-views')),
          key TEXT NOT NULL,
          sealed BLOB,
          data TEXT CHECK (data IS NULL OR json_valid(data)),
          saved_at TEXT NOT NULL,
          PRIMARY KEY (account_id, kind, key),
          CHECK ((sealed IS NULL) <> (data IS NULL))
        ) STRICT;
        INSERT INTO drafts_v12 (account_id, kind, key, sealed, data, saved_at)
          SELECT account_id, kind, key, sealed, data, saved_at FROM drafts;
        DROP TABLE drafts;
        ALTER TABLE drafts_v12 RENAME TO drafts;
      `)
    },
  },
  {
    version: 13,
    name: 'bulk runs',
    up(db) {
      // A bulk run: one write per item. `sealed` holds what the writes share (reason, expiry); an
      // item's `sealed` its record and label, and once done its result or the service's words.
      // `attempts` counts the times the write was handed to the service: one above zero makes the
      // next delivery ask the service whether it already has the write before sending it again.
      db.exec(`
        CREATE TABLE bulk_runs (
          id TEXT PRIMARY KEY,
          account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          action TEXT NOT NULL,
          sealed BLOB NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX bulk_runs_account ON bulk_runs (account_id, created_at);
        CREATE TABLE bulk_items (
          write_id TEXT PRIMARY KEY,
          run_id TEXT NOT NULL REFERENCES bulk_runs(id) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'done', 'skipped', 'failed', 'cancelled')),
          attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
          sent_at TEXT,
          sealed BLOB NOT NULL,
          UNIQUE (run_id, seq)
        ) STRICT;
        ALTER TABLE outbox ADD COLUMN bulk_write TEXT REFERENCES bulk_items(write_id) ON DELETE CASCADE;
        CREATE INDEX outbox_bulk_write ON outbox (bulk_write);
      `)
    },
  },
  {
    version: 14,
    name: 'dashboard visits',
    up(db) {
      // When the user last left an account's dashboard (issue 19, "Since your last visit"): not
      // secret, so plain; one row per account, gone with it.
      db.exec(`
        CREATE TABLE dashboard_visits (
          account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
          seen_at TEXT NOT NULL
        ) STRICT;
      `)
    },
  },
  {
    version: 15,
    name: 'remediation policies',
    up(db) {
      // An account's remediation policy (issue 20): days allowed per severity and whether to notify
      // of overdue findings. Configuration, not the service's data: plain JSON, gone with the
      // account.
      db.exec(`
        CREATE TABLE remediation_policies (
          account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
          data TEXT NOT NULL CHECK (json_valid(data)),
          saved_at TEXT NOT NULL
        ) STRICT;
      `)
    },
  },
  {
    version: 16,
    name: 'daily totals of open findings',
    up(db) {
      // The account's open findings per severity once a day (issue 20 §2): the totals sealed with
      // the account's key (bound to account and day); in clear only the day and when it was taken.
      db.exec(`
        CREATE TABLE daily_totals (
          account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
          taken_at TEXT NOT NULL,
          sealed BLOB NOT NULL,
          PRIMARY KEY (account_id, day)
        ) STRICT;
      `)
    },
  },
  {
    version: 17,
    name: 'evidence origin',
    up(db) {
      // Evidence ScanDesk made from the service's data (a verified report, a findings CSV: issue 20
      // §3) records where it came from: operation, record or query, account and time, as JSON.
      db.exec(`
        ALTER TABLE file_ledger ADD COLUMN origin TEXT CHECK (origin IS NULL OR json_valid(origin));
      `)
    },
  },
  {
    version: 18,
    name: 'dashboard left',
    up(db) {
      // "Since your last visit" moves on only when the analyst says so or once the dashboard was
      // left long enough (issue 36 §1): the last time it was left, and up to when its counts ran,
      // wait here until that visit counts. Plain, like the visits; gone with the account.
      db.exec(`
        CREATE TABLE dashboard_left (
          account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
          left_at TEXT NOT NULL,
          until TEXT NOT NULL
        ) STRICT;
      `)
    },
  },
  ...INTEL_MIGRATIONS,
]
