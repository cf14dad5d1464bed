import type { DraftKind } from '@contract/drafts'
import { sealJson, type AccountKey } from '../accounts/account-keys'
import { outboxAad, type OutboxPayload } from '../offline/outbox'
import type { Db } from './database'
import { draftAad } from './drafts-repo'

/**
 * Seals the account's drafts and outbox items written before they were sealed (schema 8 kept
 * them in their plain columns), with the account's key, in one transaction, and empties the plain
 * columns; the database overwrites what it frees (secure_delete), and a checkpoint takes the old
 * pages out of the WAL. Called when the account's key is first at hand in a run; returns how many
 * rows were sealed.
 */
export function sealPlainRows(db: Db, accountId: string, key: AccountKey): number {
  const drafts = db
    .prepare('SELECT kind, key, data FROM drafts WHERE account_id = ? AND sealed IS NULL')
    .all(accountId) as { kind: DraftKind; key: string; data: string }[]
  const items = db
    .prepare(
      'SELECT id, op, input, target, error FROM outbox WHERE account_id = ? AND sealed IS NULL',
    )
    .all(accountId) as {
    id: string
    op: string
    input: string
    target: string | null
    error: string | null
  }[]
  if (drafts.length + items.length === 0) return 0
  const sealDraft = db.prepare(
    'UPDATE drafts SET sealed = ?, data = NULL WHERE account_id = ? AND kind = ? AND key = ?',
  )
  const sealItem = db.prepare(
    'UPDATE outbox SET sealed = ?, input = NULL, target = NULL, error = NULL WHERE id = ?',
  )
  db.transaction(() => {
    for (const d of drafts) {
      const sealed = sealJson(key, draftAad(accountId, d.kind, d.key), JSON.parse(d.data))
      sealDraft.run(sealed, accountId, d.kind, d.key)
    }
    for (const item of items) {
      const payload: OutboxPayload = {
        input: JSON.parse(item.input) as OutboxPayload['input'],
        target: item.target,
        error: item.error ? (JSON.parse(item.error) as OutboxPayload['error']) : null,
      }
      sealItem.run(sealJson(key, outboxAad(accountId, item.id, item.op), payload), item.id)
    }
  })()
  db.pragma('wal_checkpoint(TRUNCATE)')
  return drafts.length + items.length
}
