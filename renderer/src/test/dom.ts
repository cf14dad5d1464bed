// The DOM test kit of the renderer's tests: find by data-testid, type, click, and wait for what
// Element Plus and the form kit do asynchronously. Dialogs are appended to body, so every
// lookup searches the whole document.
import { flushPromises } from '@vue/test-utils'

/** Every element with `data-testid` (in document order). */
export function byTestId<T extends HTMLElement = HTMLElement>(id: string): T[] {
  return [...document.querySelectorAll<T>(`[data-testid="${id}"]`)]
}

/** The one element with `data-testid`, or a failure naming it. */
export function theTestId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.querySelector<T>(`[data-testid="${id}"]`)
  if (!el) throw new Error(`nothing with data-testid ${id}`)
  return el
}

/** True when something with `data-testid` is in the document and not hidden by v-show. */
export function shown(id: string): boolean {
  const el = document.querySelector<HTMLElement>(`[data-testid="${id}"]`)
  return el !== null && el.closest('[style*="display: none"]') === null
}

/** The native input of an Element Plus input carrying `id` (on the input or its wrapper). */
export function inputOf(id: string): HTMLInputElement {
  const el = document.querySelector<HTMLInputElement>(
    `input[data-testid="${id}"], [data-testid="${id}"] input`,
  )
  if (!el) throw new Error(`no input ${id}`)
  return el
}

/** Types into an input and leaves it, then lets Vue and the fake bridge settle. */
export async function typeInto(id: string, value: string): Promise<void> {
  const el = inputOf(id)
  el.value = value
  el.dispatchEvent(new Event('input'))
  el.dispatchEvent(new FocusEvent('blur'))
  await flushPromises()
}

/** Clicks the element with `data-testid` and lets every answer land. */
export async function click(id: string): Promise<void> {
  theTestId(id).click()
  await flushPromises()
}

/** Clicks the tab (Element Plus tabs) labelled `label` and lets every answer land. */
export async function openTab(label: string): Promise<void> {
  const tab = [...document.querySelectorAll<HTMLElement>('.el-tabs__item')].find(
    (t) => t.textContent?.trim() === label,
  )
  if (!tab) throw new Error(`no tab labelled ${label}`)
  tab.click()
  await flushPromises()
}

/** Element Plus shows a form item's error after a short debounce (100 ms): wait past it. */
export async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 130))
  await flushPromises()
}

/** The form-item error text shown under the input with `id` (once the debounce has passed). */
export async function errorUnder(id: string): Promise<string> {
  await formSettled()
  await settle()
  const item = inputOf(id).closest('.el-form-item')
  return item?.querySelector('.el-form-item__error')?.textContent?.trim() ?? ''
}

/** Waits past the form kit's check of the values (vee-validate runs it after 5 ms) and the call. */
export async function formSettled(): Promise<void> {
  await new Promise((r) => setTimeout(r, 20))
  await flushPromises()
}

/** Clicks a form's submit control and waits until its call, if any, was answered. */
export async function submitWith(id: string): Promise<void> {
  await click(id)
  await formSettled()
}

/** The error text of the form item marked `data-field` (once the debounce has passed). */
export async function errorOfField(field: string): Promise<string> {
  // First the form's own check (its 5 ms timer), then the form item's debounce: timers run in
  // order, so the second wait starts after the error was set, however slow the machine.
  await formSettled()
  await settle()
  const el = document.querySelector(`[data-field="${field}"] .el-form-item__error`)
  return el?.textContent?.trim() ?? ''
}

/**
 * Counts the draws (updates) of a mounted component from now on, through its own before-update
 * hooks: for the tests that a list is drawn once an action, not again for nothing.
 */
export function countDraws(wrapper: { vm: { $: unknown } }): () => number {
  const instance = wrapper.vm.$ as { bu: (() => void)[] | null }
  let draws = 0
  instance.bu = [...(instance.bu ?? []), () => draws++]
  return () => draws
}
