// The service answers in envelopes: one record `{data: {id, type, attributes}}`, a collection
// `{data: [...], meta: {pagination}}`, or an operation's own object under `data` (statistics,
// dates, counts). This is the one place that takes them apart, as react-admin's and Refine's data
// providers hand screens `{data, total}`: views never write `.data.data`.
import type { OperationId, OutputOf } from '@contract/catalog'

/** What operation `Id`'s envelope carries under `data`: its record, its rows or its own object. */
export type RecordOf<Id extends OperationId> = OutputOf<Id> extends { data: infer D } ? D : never

/** The attributes of the record operation `Id` answers (never for answers without). */
export type AttributesOf<Id extends OperationId> =
  RecordOf<Id> extends { attributes: infer A } ? A : never

/** Operations answering one object in an envelope (a record, statistics, a count). */
export type SingleOperationId = {
  [K in OperationId]: RecordOf<K> extends readonly unknown[]
    ? never
    : RecordOf<K> extends object
      ? K
      : never
}[OperationId]

/** Operations answering a collection: `{data: [...], meta?}`. */
export type CollectionOperationId = {
  [K in OperationId]: RecordOf<K> extends readonly unknown[] ? K : never
}[OperationId]

/** One row of a collection operation's answer. */
export type RowOf<Id extends CollectionOperationId> =
  RecordOf<Id> extends readonly (infer R)[] ? R : never

/** A collection envelope as far as this file reads it. */
export interface Collection<T> {
  data: T[]
  meta?: { pagination?: { total_count?: number } }
}

/**
 * The record (or object) of a single envelope; undefined before an answer. An envelope not typed
 * at compile time (an operation chosen at run time, checked by main) gives its `data` unchecked.
 */
export function recordOf<T>(envelope: { data: T }): T
export function recordOf<T>(envelope: { data: T } | null | undefined): T | undefined
export function recordOf(envelope: unknown): unknown
export function recordOf(envelope: unknown): unknown {
  return envelope && typeof envelope === 'object'
    ? (envelope as { data?: unknown }).data
    : undefined
}

/** The attributes of a single envelope's record; undefined before an answer. */
export function attributesOf<A>(
  envelope: { data: { attributes: A } } | null | undefined,
): A | undefined {
  return envelope?.data.attributes
}

/** The rows of a collection envelope; none before an answer. */
export function rowsOf<T>(envelope: Collection<T> | null | undefined): T[] {
  return envelope?.data ?? []
}

/** How many rows the collection holds in all (its pagination's count, else the rows given). */
export function totalOf(envelope: Collection<unknown> | null | undefined): number {
  return envelope?.meta?.pagination?.total_count ?? envelope?.data.length ?? 0
}

/**
 * What a call's answer carries (`run`'s `{data: envelope, fetchedAt, …}`): the record, rows or
 * object under the envelope's `data` (unchecked for `runDynamic`'s answers).
 */
export function answered<T>(answer: { data: { data: T } }): T
export function answered(answer: { data: unknown }): unknown
export function answered(answer: { data: unknown }): unknown {
  return recordOf(answer.data)
}
