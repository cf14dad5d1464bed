import { ref, watch, type Ref } from 'vue'
import type { RowSelection } from './rowSelection'
import { onControl, onShortcut } from './shortcuts'

/** What the keys of a list act on. */
export interface ListKeyTargets {
  /** The ids of the rows on screen, in order. */
  ids: () => readonly string[]
  /** Whether the keys work now (the page's main list, on screen). */
  enabled: () => boolean
  open: (id: string) => void
  /** The list's selection, where it offers one (x and Shift+x). */
  selection?: () => RowSelection | null
  focusSearch: () => void
}

/**
 * Keyboard triage on a list: j/↓ and k/↑ move a row cursor (the first key lands on the first
 * row), Enter opens the row under it, x toggles its selection and Shift+x extends the selection
 * to it, / focuses the search. Silent while typing in a field or with a dialog open
 * (shortcutSilenced). The cursor stays on its row's id while the rows change, and leaves when
 * its row does.
 */
export function useListKeys(targets: ListKeyTargets): { cursor: Ref<string | null> } {
  const cursor = ref<string | null>(null)
  const on = targets.enabled

  watch(targets.ids, (ids) => {
    if (cursor.value !== null && !ids.includes(cursor.value)) cursor.value = null
  })

  function move(step: 1 | -1): void {
    const ids = targets.ids()
    if (!ids.length) return
    const at = cursor.value === null ? -1 : ids.indexOf(cursor.value)
    const next = at < 0 ? (step === 1 ? 0 : ids.length - 1) : at + step
    cursor.value = ids[Math.min(ids.length - 1, Math.max(0, next))]
    // The keys now act on the row: a link or button keeping the focus would take Enter.
    const active = document.activeElement
    if (active instanceof HTMLElement && active !== document.body) active.blur()
  }
  onShortcut(['j', 'ArrowDown'], () => move(1), on)
  onShortcut(['k', 'ArrowUp'], () => move(-1), on)
  onShortcut(
    ['Enter'],
    () => {
      if (cursor.value !== null) targets.open(cursor.value)
    },
    (event) => on() && cursor.value !== null && !onControl(event),
  )
  onShortcut(
    ['x', 'X'],
    (event) => {
      const selection = targets.selection?.()
      if (!selection || cursor.value === null) return
      if (event.shiftKey) selection.extendTo(cursor.value)
      else selection.toggle(cursor.value)
    },
    () => on() && cursor.value !== null && !!targets.selection?.(),
  )
  onShortcut(['/'], () => targets.focusSearch(), on)
  return { cursor }
}
