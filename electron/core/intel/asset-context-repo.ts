// An account's asset context in the local store (migration 20): one row per account, its whole
// context sealed with the account's key (AES-256-GCM bound to the account), so nothing about an
// asset (owner, rule, range, pattern, tag, target id, host address) lies on disk in plain text.
// Each write is one statement or one transaction: a crash leaves the previous or the new context.
import {
  assetContextDocument,
  CONTEXT_FIELDS,
  EMPTY_CONTEXT,
  type AssetContext,
  type AssetContextDocument,
  type AssetContextFile,
  type AssetRule,
} from '@contract/intel/asset-context'
import { fail } from '@contract/errors'
import { openJson, sealJson, type AccountKey, type KeySource } from '../accounts/account-keys'
import type { Db } from '../store/database'

/** Why the asset context cannot be read or written now (the account's key is in the keychain). */
export const ASSETS_LOCKED =
  'The system keychain is not available, and ScanDesk seals each account’s asset context with a key it keeps there: it is neither shown nor changed until the keychain answers again.'

/** What the sealed context is bound to: a row moved to another account does not open. */
const assetAad = (accountId: string) => `asset-context\n${accountId}`

/** Where an explicit setting is, its address already in its usual text. */
export type Place = { kind: 'target'; id: string } | { kind: 'host'; address: string }

/** A context with only the fields it says (an empty one says nothing: null). */
function trimmed(context: AssetContext | null): AssetContext | null {
  if (!context) return null
  const out: AssetContext = {}
  for (const f of CONTEXT_FIELDS)
    if (context[f] !== undefined) Object.assign(out, { [f]: context[f] })
  return Object.keys(out).length ? out : null
}

/** The asset_context table. */
export class AssetContextRepo {
  constructor(
    private readonly db: Db,
    private readonly keys: KeySource,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private exists(accountId: string): boolean {
    return !!this.db.prepare('SELECT 1 FROM accounts WHERE id = ?').get(accountId)
  }

  private async key(accountId: string): Promise<AccountKey> {
    if (!this.exists(accountId)) fail('UNKNOWN_ACCOUNT', 'There is no such account.')
    const { key } = await this.keys.keyFor(accountId)
    return key ?? fail('KEYCHAIN_UNAVAILABLE', ASSETS_LOCKED)
  }

  private read(accountId: string, key: AccountKey): AssetContextDocument {
    const row = this.db
      .prepare('SELECT sealed FROM asset_context WHERE account_id = ?')
      .get(accountId) as { sealed: Buffer } | undefined
    if (!row) return structuredClone(EMPTY_CONTEXT)
    const parsed = assetContextDocument.safeParse(openJson(key, assetAad(accountId), row.sealed))
    if (!parsed.success)
      fail(
        'INTEGRITY_FAILED',
        'This account’s asset context does not open (altered, or sealed under another key).',
      )
    return parsed.data
  }

  private statement() {
    return this.db.prepare(
      `INSERT INTO asset_context (account_id, saved_at, sealed) VALUES (?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET saved_at = excluded.saved_at, sealed = excluded.sealed`,
    )
  }

  private write(accountId: string, key: AccountKey, doc: AssetContextDocument): void {
    const sealed = sealJson(key, assetAad(accountId), assetContextDocument.parse(doc))
    this.statement().run(accountId, this.now().toISOString(), sealed)
  }

  /** The account's context (empty when none was saved). */
  async get(accountId: string): Promise<AssetContextDocument> {
    return this.read(accountId, await this.key(accountId))
  }

  /** Sets (fields replaced) or clears (null, or a context that says nothing) one place's context. */
  async set(
    accountId: string,
    place: Place,
    context: AssetContext | null,
  ): Promise<AssetContextDocument> {
    const key = await this.key(accountId)
    const doc = this.read(accountId, key)
    const map = place.kind === 'target' ? doc.targets : doc.hosts
    const name = place.kind === 'target' ? place.id : place.address
    const value = trimmed(context)
    if (value) map[name] = value
    else delete map[name]
    this.write(accountId, key, doc)
    return doc
  }

  /** Replaces the account's rules, in the order given. */
  async setRules(accountId: string, rules: AssetRule[]): Promise<AssetContextDocument> {
    const key = await this.key(accountId)
    const doc = { ...this.read(accountId, key), rules }
    this.write(accountId, key, doc)
    return doc
  }

  /**
   * Applies a checked file to every account of `accountIds`, all or none: each account's rules
   * become the file's and the file's settings replace those of the same targets and hosts (others
   * kept). Every key and every current context is read first; the writes are one transaction.
   */
  async apply(accountIds: readonly string[], file: AssetContextFile): Promise<void> {
    const planned: { accountId: string; sealed: Buffer }[] = []
    for (const accountId of accountIds) {
      const key = await this.key(accountId)
      const current = this.read(accountId, key)
      const doc = assetContextDocument.parse({
        rules: file.rules,
        targets: { ...current.targets, ...file.targets },
        hosts: { ...current.hosts, ...file.hosts },
      })
      planned.push({ accountId, sealed: sealJson(key, assetAad(accountId), doc) })
    }
    const savedAt = this.now().toISOString()
    const insert = this.statement()
    this.db.transaction(() => {
      for (const p of planned) {
        if (!this.exists(p.accountId))
          fail('UNKNOWN_ACCOUNT', 'An account was removed meanwhile; no account was changed.')
        insert.run(p.accountId, savedAt, p.sealed)
      }
    })()
  }
}
