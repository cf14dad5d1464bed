import { toValue, type MaybeRefOrGetter } from 'vue'

/** What a form dialog's Enter needs to know. */
export interface DialogKeysOptions {
  /** The dialog's one action. */
  submit: () => void
  /** A submit is in flight: Enter does nothing (and Esc does not close the dialog). */
  busy?: MaybeRefOrGetter<boolean | undefined>
  /** The action cannot be taken now (disabled, or it waits for the service): Enter does nothing. */
  disabled?: MaybeRefOrGetter<boolean | undefined>
  /** False leaves Enter alone altogether (a step that brings its own form and buttons). */
  enabled?: MaybeRefOrGetter<boolean | undefined>
}

/** Controls whose own Enter is theirs: a button presses, a link follows, a select opens. */
const OWN_ENTER =
  'button, a[href], summary, select, [role="button"], [role="link"], [role="menuitem"], [role="option"], [role="tab"]'

/** A field where Enter starts a new line. */
function multiLine(el: HTMLElement): boolean {
  return el instanceof HTMLTextAreaElement || el.isContentEditable
}

/**
 * The keys of every form dialog, one behaviour for all (ActionDialog and SchemaFormShell use it):
 * Enter submits from any field but a multi-line one (there Ctrl/Cmd+Enter does); never while a
 * submit is in flight or the action is disabled, never during an IME composition (Enter there
 * picks the composed text), never when a control inside already handled it (a select choosing an
 * option, a date picker) or when the key belongs to the focused control (a button, a link). The
 * handled key is marked (preventDefault), so the browser's own form submission and an outer
 * dialog's handler do not submit it a second time. Esc is the dialog's (it closes, as Cancel).
 */
export function useDialogKeys(options: DialogKeysOptions): (event: KeyboardEvent) => void {
  return (event) => {
    if (event.key !== 'Enter' || event.defaultPrevented || event.altKey) return
    if (toValue(options.enabled) === false) return
    // keyCode 229: the key went to an input method (Safari and older Chromium do not set isComposing).
    if (event.isComposing || event.keyCode === 229) return
    const target = event.target instanceof HTMLElement ? event.target : null
    if (target?.closest(OWN_ENTER)) return
    const chord = event.ctrlKey || event.metaKey
    if (target && multiLine(target) && !chord) return
    // From here the key is the dialog's: it submits, or (busy, disabled) does nothing at all.
    event.preventDefault()
    if (toValue(options.busy) || toValue(options.disabled)) return
    options.submit()
  }
}
