import type { BulkItemView } from '@contract/bulk'

// Every field of a write as the result shows it (a field added to BulkItemView must be added here).
const SHOWN: Record<keyof BulkItemView, true> = {
  writeId: true,
  target: true,
  label: true,
  state: true,
  message: true,
  code: true,
  resultId: true,
  attempts: true,
}
const FIELDS = Object.keys(SHOWN) as (keyof BulkItemView)[]

/** True when two pages of a run's writes show the same rows (each write as it was). */
export function sameItems(a: readonly BulkItemView[], b: readonly BulkItemView[]): boolean {
  return a.length === b.length && a.every((item, i) => FIELDS.every((f) => item[f] === b[i][f]))
}
