import { computed, type ComputedRef, type MaybeRefOrGetter } from 'vue'
import type { InputOf, OperationId, OutputOf } from '@contract/catalog'
import {
  recordOf,
  rowsOf,
  totalOf,
  type AttributesOf,
  type CollectionOperationId,
  type RecordOf,
  type RowOf,
  type SingleOperationId,
} from './envelope'
import {
  useDynamicOperation,
  useOperation,
  type OperationOptions,
  type OperationState,
} from './useOperation'
import type { DynamicInput } from './useOperationCall'

/** A read of one record: `useOperation`'s state plus the record and its attributes. */
export type RecordState<Id extends SingleOperationId> = OperationState<OutputOf<Id>> & {
  /** The answer's record (or the operation's own object), undefined before an answer. */
  record: ComputedRef<RecordOf<Id> | undefined>
  /** The record's attributes, undefined before an answer (and for objects without). */
  attributes: ComputedRef<AttributesOf<Id> | undefined>
}

/** A read of a collection: `useOperation`'s state plus its rows and how many there are in all. */
export type RowsState<Id extends CollectionOperationId> = OperationState<OutputOf<Id>> & {
  /** The answer's rows (none before an answer). */
  rows: ComputedRef<RowOf<Id>[]>
  /** The collection's size as the service counts it (the rows given when it does not say). */
  total: ComputedRef<number>
}

/**
 * `useOperation` for an operation answering one record (`{data: {id, type, attributes}}`) or one
 * object (`{data: {...}}`): the screen gets `record` and `attributes`, never the envelope.
 */
export function useRecord<Id extends SingleOperationId>(
  op: Id,
  input: MaybeRefOrGetter<InputOf<Id> | null> = {},
  options: OperationOptions = {},
): RecordState<Id> {
  const state = useOperation(op, input, options)
  const record = computed(() => recordOf(state.data.value) as RecordOf<Id> | undefined)
  const attributes = computed(
    () => (record.value as { attributes?: AttributesOf<Id> } | undefined)?.attributes,
  )
  return { ...state, record, attributes }
}

/**
 * `useOperation` for an operation answering a collection (`{data: [...], meta}`), not paged by
 * the screen (a panel's few rows, a picker's options): `rows` and `total`. Paged tables use
 * `useOperationList`.
 */
export function useRows<Id extends CollectionOperationId>(
  op: Id,
  input: MaybeRefOrGetter<InputOf<Id> | null> = {},
  options: OperationOptions = {},
): RowsState<Id> {
  const state = useOperation(op, input, options)
  const envelope = () => state.data.value as { data: RowOf<Id>[] } | undefined
  return {
    ...state,
    rows: computed(() => rowsOf(envelope())),
    total: computed(() => totalOf(envelope())),
  }
}

/**
 * `useDynamicOperation` unwrapped: the record of an operation chosen at run time (main checked
 * the answer against the catalog; the screen checks its shape).
 */
export function useDynamicRecord(
  op: OperationId,
  input: MaybeRefOrGetter<DynamicInput | null>,
  options: OperationOptions = {},
): OperationState<unknown> & { record: ComputedRef<unknown> } {
  const state = useDynamicOperation(op, input, options)
  return { ...state, record: computed(() => recordOf(state.data.value)) }
}
