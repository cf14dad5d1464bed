import { ref, type Ref } from 'vue'

/** The rows chosen on a list, by id, kept across its pages. */
export interface RowSelection {
  /** Chosen ids, in the order they were chosen. */
  selected: Ref<string[]>
  /** Chooses the row, or un-chooses it; it becomes the anchor of `extendTo`. */
  toggle(id: string): void
  /** Chooses every visible row from the anchor (the last toggled) to this one. */
  extendTo(id: string): void
  /** Chooses none. */
  clear(): void
  /** Chooses every visible row. */
  selectAll(): void
}

/** A selection over the rows `visible()` lists (the page on screen, in its order). */
export function useRowSelection(visible: () => readonly string[]): RowSelection {
  const selected = ref<string[]>([])
  let anchor: string | null = null

  function toggle(id: string): void {
    selected.value = selected.value.includes(id)
      ? selected.value.filter((s) => s !== id)
      : [...selected.value, id]
    anchor = id
  }
  function extendTo(id: string): void {
    const rows = visible()
    const from = anchor === null ? -1 : rows.indexOf(anchor)
    const to = rows.indexOf(id)
    if (to < 0) return
    const range = from < 0 ? [id] : rows.slice(Math.min(from, to), Math.max(from, to) + 1)
    selected.value = [...selected.value, ...range.filter((r) => !selected.value.includes(r))]
    anchor = id
  }
  function clear(): void {
    selected.value = []
    anchor = null
  }
  function selectAll(): void {
    const rows = visible()
    selected.value = [...selected.value, ...rows.filter((r) => !selected.value.includes(r))]
  }
  return { selected, toggle, extendTo, clear, selectAll }
}
