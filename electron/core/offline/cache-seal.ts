import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { open, seal, tagOf, type AccountKey } from '../accounts/account-keys'

/*
 * How one entry of the offline copy is sealed. The answer: deflated, AES-256-GCM under the
 * account's key, bound to the account and the entry's name (so a row moved to another request or
 * account does not open). Its fetch time: a stamp sealed apart (a 304 renews it without rewriting
 * the answer), bound to the same name and naming the answer blob it belongs to by its tag, so a
 * time cannot be forged, nor taken from a newer answer and put on an older one.
 */

/** A stored row: the sealed answer and its sealed stamp. */
export interface SealedRow {
  blob: Buffer
  stamp: Buffer
}

/** What a stamp seals: the fetch time, and the tag of the answer blob it belongs to. */
export interface Stamp {
  at: string
  of: string
}

const answerAad = (accountId: string, id: Buffer) =>
  Buffer.concat([Buffer.from(`${accountId}\n`, 'utf8'), id])
const stampAad = (accountId: string, id: Buffer) =>
  Buffer.concat([Buffer.from(`fetched at\n${accountId}\n`, 'utf8'), id])

/** The tag that names an answer blob (what a stamp is bound to), as text. */
export const blobTag = (blob: Buffer) => tagOf(blob).toString('base64')

/** Seals the answer's JSON text (deflated). */
export function sealAnswer(key: AccountKey, accountId: string, id: Buffer, text: string): Buffer {
  return seal(
    key.encrypt,
    answerAad(accountId, id),
    deflateRawSync(Buffer.from(text), { level: 1 }),
  )
}

/** Seals a fetch time for the answer blob whose tag is `of`. */
export function sealStamp(key: AccountKey, accountId: string, id: Buffer, stamp: Stamp): Buffer {
  return seal(key.encrypt, stampAad(accountId, id), Buffer.from(JSON.stringify(stamp)))
}

/** The stamp of an entry, or null when it does not open. */
export function openStamp(
  key: AccountKey,
  accountId: string,
  id: Buffer,
  sealed: Buffer,
): Stamp | null {
  const plain = open(key.encrypt, stampAad(accountId, id), sealed)
  if (!plain) return null
  try {
    const stamp = JSON.parse(plain.toString('utf8')) as Stamp
    return typeof stamp.at === 'string' && typeof stamp.of === 'string' ? stamp : null
  } catch {
    return null
  }
}

/**
 * The answer's JSON text and fetch time of a row whose answer and stamp both open and belong
 * together, or null (altered, moved, sealed under another key, or a stamp of another answer).
 */
export function openRow(
  key: AccountKey,
  accountId: string,
  id: Buffer,
  row: SealedRow,
): { text: string; fetchedAt: string; tag: string } | null {
  const tag = blobTag(row.blob)
  const stamp = openStamp(key, accountId, id, row.stamp)
  if (!stamp || stamp.of !== tag) return null
  const plain = open(key.encrypt, answerAad(accountId, id), row.blob)
  if (!plain) return null
  try {
    return { text: inflateRawSync(plain).toString('utf8'), fetchedAt: stamp.at, tag }
  } catch {
    return null
  }
}
