import { onKeyStroke } from '@vueuse/core'

/** One line of the shortcuts help (`?`): the keys, and what they do where. */
export interface ShortcutHelp {
  /** Either of these; a chord as `Shift+x`. */
  keys: readonly string[]
  does: string
  where: 'Anywhere' | 'Lists' | 'A record’s page'
}

/**
 * Every keyboard shortcut of the app, as the `?` help shows them. A feature adding one adds its
 * line here.
 */
export const SHORTCUTS: readonly ShortcutHelp[] = [
  { keys: ['?'], does: 'Show these shortcuts', where: 'Anywhere' },
  {
    keys: ['Ctrl/Cmd+K'],
    does: 'Go to anything: screens, saved views, actions and records (in a field too)',
    where: 'Anywhere',
  },
  { keys: ['Ctrl/Cmd+1…9'], does: 'Switch to the n-th account', where: 'Anywhere' },
  { keys: ['Ctrl/Cmd+Shift+A'], does: 'Open the accounts panel', where: 'Anywhere' },
  { keys: ['j', '↓'], does: 'Move the row cursor down', where: 'Lists' },
  { keys: ['k', '↑'], does: 'Move the row cursor up', where: 'Lists' },
  { keys: ['Enter'], does: 'Open the row under the cursor', where: 'Lists' },
  { keys: ['x'], does: 'Select the row under the cursor, or leave it', where: 'Lists' },
  {
    keys: ['Shift+x'],
    does: 'Select every row from the last one selected to the cursor',
    where: 'Lists',
  },
  { keys: ['/'], does: 'Search the list', where: 'Lists' },
  { keys: ['n'], does: 'Open the next record of the list it came from', where: 'A record’s page' },
  {
    keys: ['p'],
    does: 'Open the previous record of the list it came from',
    where: 'A record’s page',
  },
]

const FIELD = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]'
const DIALOG = '.el-overlay, .el-message-box, [role="dialog"][aria-modal="true"]'

/** Shown: neither it nor a parent is hidden by `display: none` (how dialogs close: v-show). */
function shown(el: Element): boolean {
  for (let e: Element | null = el; e; e = e.parentElement)
    if (e instanceof HTMLElement && (e.hidden || e.style.display === 'none')) return false
  return true
}

/** A dialog (or a drawer, a message box) is open over the page. */
export function dialogOpen(doc: Document = document): boolean {
  return [...doc.querySelectorAll(DIALOG)].some(shown)
}

/**
 * A key that is no shortcut: typed into a field (or an editable element), pressed with Ctrl, Cmd
 * or Alt (those are the system's and the browser's), or pressed while a dialog is open.
 */
export function shortcutSilenced(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return true
  const target = event.target
  if (target instanceof Element && target.closest(FIELD)) return true
  const active = document.activeElement
  if (active instanceof Element && active !== document.body && active.closest(FIELD)) return true
  return dialogOpen()
}

const CONTROL = 'a[href], button, [role="button"], [role="tab"], [role="menuitem"], summary'

/** The key goes to a control that has the focus (Enter on a button or a link is that control's). */
export function onControl(event: KeyboardEvent): boolean {
  const target = event.target
  return target instanceof Element && !!target.closest(CONTROL)
}

/**
 * Runs `handler` for these keys (KeyboardEvent.key values) while `enabled`, unless the key is
 * silenced (shortcutSilenced); the key's default (scrolling, typing) is then prevented. Removed
 * with the component.
 */
export function onShortcut(
  keys: readonly string[],
  handler: (event: KeyboardEvent) => void,
  enabled: (event: KeyboardEvent) => boolean = () => true,
): void {
  onKeyStroke(
    [...keys],
    (event) => {
      if (event.defaultPrevented || shortcutSilenced(event) || !enabled(event)) return
      event.preventDefault()
      handler(event)
    },
    { target: document },
  )
}
