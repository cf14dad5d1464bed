// The contract every Vault keeps (electron/core/accounts/vault.ts), as one suite run against each
// implementation (tests/keychain/vault-contract.test.ts): the keychain through a real Secret
// Service, the in-memory vault, and the resilient vault over either. Each test uses accounts of
// its own (random ids) and deletes what it stored.
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { MAX_SECRET_BYTES } from '../../electron/core/accounts/keychain-vault'
import { SECRET_KINDS, type SecretKind, type Vault } from '../../electron/core/accounts/vault'

/** Values that must come back exactly as stored: no normalisation, no trimming, no cut. */
export const UNICODE_VALUES: Record<string, string> = {
  'Latin with accents': 'pässwörd-çédille',
  'Han, Cyrillic and Greek': '密码-пароль-κωδικός',
  'right-to-left text': 'סיסמה-كلمة',
  'an astral emoji and a ZWJ sequence': '🔑👩‍💻🏳️‍🌈',
  'a combining accent (not composed)': 'e\u0301', // stays two code points, not 'é'
  'the composed accent': '\u00e9',
  'spaces at both ends': '  padded  ',
  'a line break and a tab': 'line\nbreak\ttab',
  'an astral character between ASCII ones': 'x\u{1F600}y',
  'exactly the byte limit in 3-byte characters':
    '€'.repeat(Math.floor(MAX_SECRET_BYTES / 3)) + 'x'.repeat(MAX_SECRET_BYTES % 3),
}

/** Registers the vault contract for one implementation. */
export function vaultContract(name: string, make: () => Promise<Vault>): void {
  describe(`the vault contract: ${name}`, () => {
    const used = new Set<string>()
    let vault: Vault
    const account = () => {
      const id = `vc-${randomUUID()}`
      used.add(id)
      return id
    }

    afterEach(async () => {
      for (const id of used) await vault.deleteAll(id)
      used.clear()
    })

    async function fresh(): Promise<Vault> {
      vault = await make()
      return vault
    }

    describe('missing entries', () => {
      it('read as null for every kind, and deleting them is no error', async () => {
        const v = await fresh()
        const id = account()
        for (const kind of SECRET_KINDS) expect(await v.get(id, kind), kind).toBeNull()
        await v.delete(id, 'session_token')
        await v.deleteAll(id)
        expect(await v.get(id, 'api_key')).toBeNull()
      })

      it('a deleted secret reads as null; the account’s other secrets and other accounts stay', async () => {
        const v = await fresh()
        const [a, b] = [account(), account()]
        await v.set(a, 'api_key', 'key-a')
        await v.set(a, 'session_token', 'token-a')
        await v.set(b, 'session_token', 'token-b')
        await v.delete(a, 'session_token')
        expect(await v.get(a, 'session_token')).toBeNull()
        expect(await v.get(a, 'api_key')).toBe('key-a')
        expect(await v.get(b, 'session_token')).toBe('token-b')
        await v.deleteAll(a)
        for (const kind of SECRET_KINDS) expect(await v.get(a, kind), kind).toBeNull()
        expect(await v.get(b, 'session_token')).toBe('token-b')
      })

      it('an account id that is a prefix of another is another account', async () => {
        const v = await fresh()
        const a = account()
        const longer = `${a}x`
        used.add(longer)
        await v.set(longer, 'api_key', 'longer')
        expect(await v.get(a, 'api_key')).toBeNull()
        await v.deleteAll(a)
        expect(await v.get(longer, 'api_key')).toBe('longer')
      })
    })

    describe('unicode', () => {
      it.each(Object.entries(UNICODE_VALUES))(
        'gives back %s exactly, replaced and read again',
        async (_name, value) => {
          const v = await fresh()
          const id = account()
          await v.set(id, 'password', 'before')
          await v.set(id, 'password', value)
          const read = await v.get(id, 'password')
          expect(read).toBe(value)
          expect([...read!].length).toBe([...value].length)
        },
      )

      it.each([
        ['an empty secret', ''],
        ['a NUL character', 'before\u0000after'],
        ['one byte over the limit', `${'€'.repeat(Math.floor(MAX_SECRET_BYTES / 3))}xx`],
      ])('refuses %s with VALIDATION and keeps the one stored', async (_name, value) => {
        const v = await fresh()
        const id = account()
        await v.set(id, 'session_token', 'kept')
        const err = await v.set(id, 'session_token', value).catch((e: unknown) => e)
        expect(err).toBeInstanceOf(AppFailure)
        expect((err as AppFailure).error.code).toBe('VALIDATION')
        expect(await v.get(id, 'session_token')).toBe('kept')
      })
    })

    describe('concurrent writes', () => {
      it('keeps every secret written at once, each under its own account and kind', async () => {
        const v = await fresh()
        const ids = [account(), account(), account()]
        const value = (id: string, kind: SecretKind) => `${kind}:${id}:ünï`
        await Promise.all(
          ids.flatMap((id) => SECRET_KINDS.map((kind) => v.set(id, kind, value(id, kind)))),
        )
        const read = await Promise.all(
          ids.flatMap((id) => SECRET_KINDS.map(async (kind) => [await v.get(id, kind), kind, id])),
        )
        for (const [got, kind, id] of read) expect(got).toBe(value(id!, kind as SecretKind))
      })

      it('ends with one of the values written at once to the same secret, whole', async () => {
        const v = await fresh()
        const id = account()
        const values = Array.from({ length: 12 }, (_, i) => `value-${i}-${'ß'.repeat(i)}`)
        await Promise.all(values.map((value) => v.set(id, 'access_token', value)))
        const read = await v.get(id, 'access_token')
        expect(values).toContain(read)
        expect(await v.get(id, 'access_token')).toBe(read)
      })

      it('deletes one account while another is written, without touching the other', async () => {
        const v = await fresh()
        const [gone, kept] = [account(), account()]
        await Promise.all(SECRET_KINDS.map((kind) => v.set(gone, kind, `old-${kind}`)))
        await Promise.all([
          v.deleteAll(gone),
          ...SECRET_KINDS.map((kind) => v.set(kept, kind, `new-${kind}`)),
        ])
        for (const kind of SECRET_KINDS) {
          expect(await v.get(gone, kind), kind).toBeNull()
          expect(await v.get(kept, kind), kind).toBe(`new-${kind}`)
        }
      })
    })
  })
}
