import type { BulkItemView } from '@contract/bulk'

// Every field of a write as the result shows it (a field added to BulkItemView must be added here).
const SHOWN: Record<keyof BulkItemView, true> = {
  writeId: true,
  target: true,
  label: true,
  host: true,
  state: true,
  message: true,
  code: true,
  resultId: true,
  attempts: true,
}
const FIELDS = Object.keys(SHOWN) as (keyof BulkItemView)[]

/** Equal values of a field (a host is an object: the same id and words). */
const same = (a: unknown, b: unknown) =>
  a === b ||
  (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null
    ? JSON.stringify(a) === JSON.stringify(b)
    : false)

/** True when two pages of a run's writes show the same rows (each write as it was). */
export function sameItems(a: readonly BulkItemView[], b: readonly BulkItemView[]): boolean {
  return a.length === b.length && a.every((item, i) => FIELDS.every((f) => same(item[f], b[i][f])))
}
