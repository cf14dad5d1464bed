import { computed, shallowRef, type ComputedRef, type ShallowRef } from 'vue'

/** What a list's row selection offers: the table's check boxes, `x`/Shift+x and bulk actions. */
export interface RowSelection {
  /** The chosen rows' ids (a new set on every change, so watching it is cheap). */
  selected: ShallowRef<ReadonlySet<string>>
  /** The chosen ids in the rows' order (ids no longer on screen last). */
  ids: ComputedRef<string[]>
  count: ComputedRef<number>
  /** Where the last toggle happened: `extendTo` selects from here. */
  anchor: ShallowRef<string | null>
  has(id: string): boolean
  /** Chooses the row, or leaves it when chosen; it becomes the anchor. */
  toggle(id: string): void
  /**
   * Chooses every row from the anchor to this one (in the rows' order), keeping what was
   * chosen; with no anchor on screen, the row alone. The row becomes the anchor.
   */
  extendTo(id: string): void
  /** Chooses exactly these rows (the table's "all" check box, a bulk "all matching"). */
  selectAll(ids: readonly string[]): void
  clear(): void
  /** Keeps only the ids among these (rows still on screen after a page or filter change). */
  retain(ids: readonly string[]): void
}

/**
 * The selection model of a list, shared by the table's check boxes, the keyboard (`x` toggles,
 * Shift+x extends) and bulk actions. `order` gives the ids of the rows on screen, in order.
 */
export function useRowSelection(order: () => readonly string[]): RowSelection {
  const selected = shallowRef<ReadonlySet<string>>(new Set())
  const anchor = shallowRef<string | null>(null)
  const set = (next: Set<string>) => {
    selected.value = next
  }

  function toggle(id: string): void {
    const next = new Set(selected.value)
    if (next.has(id)) next.delete(id)
    else next.add(id)
    anchor.value = id
    set(next)
  }
  function extendTo(id: string): void {
    const rows = order()
    const from = anchor.value === null ? -1 : rows.indexOf(anchor.value)
    const to = rows.indexOf(id)
    const next = new Set(selected.value)
    if (from < 0 || to < 0) next.add(id)
    else for (let i = Math.min(from, to); i <= Math.max(from, to); i++) next.add(rows[i])
    anchor.value = id
    set(next)
  }
  function selectAll(ids: readonly string[]): void {
    set(new Set(ids))
  }
  function clear(): void {
    anchor.value = null
    if (selected.value.size) set(new Set())
  }
  function retain(ids: readonly string[]): void {
    const keep = new Set(ids)
    if (anchor.value !== null && !keep.has(anchor.value)) anchor.value = null
    if ([...selected.value].every((id) => keep.has(id))) return
    set(new Set([...selected.value].filter((id) => keep.has(id))))
  }
  const ids = computed(() => {
    const chosen = selected.value
    const onScreen = order().filter((id) => chosen.has(id))
    const shown = new Set(onScreen)
    return [...onScreen, ...[...chosen].filter((id) => !shown.has(id))]
  })
  const count = computed(() => selected.value.size)

  return {
    selected,
    ids,
    count,
    anchor,
    has: (id) => selected.value.has(id),
    toggle,
    extendTo,
    selectAll,
    clear,
    retain,
  }
}
