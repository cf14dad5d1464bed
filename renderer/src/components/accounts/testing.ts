// Helpers shared by the account dialogs' tests: challenge builders and DOM shortcuts.
import { flushPromises } from '@vue/test-utils'
import type { ChallengeView } from '@contract/sessions'

/** A challenge as main hands it out (no service token in it). */
export function challengeView(extra: Partial<ChallengeView> = {}): ChallengeView {
  return {
    challengeId: 'chal-0000000000000001',
    accountId: 'acct-aaaa',
    label: 'Production',
    username: 'admin@example.com',
    methods: ['app', 'sms', 'recovery'],
    defaultMethod: 'app',
    expiresAt: '2030-01-01T00:05:00Z',
    phoneHint: null,
    smsResendAt: null,
    ...extra,
  }
}

/** The element with `data-testid`, or a failure naming it. */
export function byTestId<T extends HTMLElement = HTMLElement>(testId: string): T {
  const el = document.querySelector<T>(`[data-testid="${testId}"]`)
  if (!el) throw new Error(`nothing with data-testid ${testId}`)
  return el
}

/** True when something with `data-testid` is in the document and not hidden by v-show. */
export function shown(testId: string): boolean {
  const el = document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)
  return el !== null && el.closest('[style*="display: none"]') === null
}

/** The input with `data-testid` (Element Plus puts the attribute on the native input). */
export function inputOf(testId: string): HTMLInputElement {
  const el = document.querySelector<HTMLInputElement>(
    `input[data-testid="${testId}"], [data-testid="${testId}"] input`,
  )
  if (!el) throw new Error(`no input ${testId}`)
  return el
}

/** Types into an input and leaves it, then lets Vue and the fake bridge settle. */
export async function typeInto(testId: string, value: string): Promise<void> {
  const el = inputOf(testId)
  el.value = value
  el.dispatchEvent(new Event('input'))
  el.dispatchEvent(new FocusEvent('blur'))
  await flushPromises()
}

/** Clicks the element with `data-testid` and lets everything settle. */
export async function click(testId: string): Promise<void> {
  byTestId(testId).click()
  await flushPromises()
}
