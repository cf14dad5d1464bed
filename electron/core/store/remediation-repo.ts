import {
  DEFAULT_POLICY,
  remediationPolicyDocument,
  type RemediationPolicyDocument,
} from '@contract/remediation'
import type { Db } from './database'

/** An account's remediation policy as main keeps it; `saved` false: the defaults, never saved. */
export type StoredPolicy = RemediationPolicyDocument & { saved: boolean; savedAt: string | null }

/** The remediation_policies table (migration 15): one policy per account, gone with it. */
export class RemediationRepo {
  constructor(private readonly db: Db) {}

  /** The account's policy, or the defaults (notifications off) when none was saved or readable. */
  get(accountId: string): StoredPolicy {
    const row = this.db
      .prepare('SELECT data, saved_at FROM remediation_policies WHERE account_id = ?')
      .get(accountId) as { data: string; saved_at: string } | undefined
    if (row) {
      try {
        const parsed = remediationPolicyDocument.safeParse(JSON.parse(row.data))
        if (parsed.success) return { ...parsed.data, saved: true, savedAt: row.saved_at }
      } catch {
        // unreadable: the defaults below
      }
    }
    return { policy: { ...DEFAULT_POLICY }, notify: false, saved: false, savedAt: null }
  }

  /** Stores the account's policy (one statement); false when the account is gone. */
  set(accountId: string, doc: RemediationPolicyDocument, now = new Date()): StoredPolicy | null {
    const data = JSON.stringify(remediationPolicyDocument.parse(doc))
    const savedAt = now.toISOString()
    try {
      this.db
        .prepare(
          `INSERT INTO remediation_policies (account_id, data, saved_at) VALUES (?, ?, ?)
           ON CONFLICT(account_id) DO UPDATE SET data = excluded.data, saved_at = excluded.saved_at`,
        )
        .run(accountId, data, savedAt)
    } catch (err) {
      if (/FOREIGN KEY/i.test((err as Error).message)) return null
      throw err
    }
    return this.get(accountId)
  }
}
