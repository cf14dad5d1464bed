// Helpers for the My account unit tests: a fake service behind api.call, answered per op id.
import { flushPromises } from '@vue/test-utils'
import type { CurrentUser } from '@/stores/currentUser'
import { Fail, type FakeScandesk } from '@/test/fakeScandesk'

/** The payload of one api.call as the fake bridge receives it. */
export interface ApiPayload {
  accountId: string
  op: string
  input: { body?: Record<string, unknown>; query?: Record<string, unknown> }
  requestId?: string
}

/** One op's fake: returns the service's answer body, a Fail, or a promise of either. */
export type OpHandler = (p: ApiPayload) => unknown

/** The current user as user.show answers it. */
export function userResource(
  attrs: Partial<CurrentUser['attributes']> = {},
  id = 'usr-001',
): CurrentUser {
  return {
    id,
    type: 'user',
    attributes: {
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      role: 'analyst',
      organization_id: 'org-001',
      two_factor_enabled: false,
      two_factor_method: null,
      phone_number: null,
      confirmed: true,
      status: 'active',
      partner: false,
      locale: 'en',
      time_zone: 'Europe/London',
      current_product: null,
      created_at: '2030-01-01T00:00:00Z',
      updated_at: '2030-01-01T00:00:00Z',
      ...attrs,
    },
  }
}

/** Wraps a service answer the way api.call answers. */
export function answer(body: unknown) {
  return { data: body, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false }
}

/** A failed call with field errors, as main reports a 422. */
export function invalid(fieldErrors: Record<string, string[]>, message = 'The service refused.') {
  return new Fail({ code: 'VALIDATION', status: 422, message, fieldErrors })
}

/**
 * Answers api.call per op id; ops without a handler fail loudly. Defaults: user.show and
 * user.permissions for an analyst. Returns the map so tests can replace handlers later.
 */
export function serveUserApi(fake: FakeScandesk, handlers: Record<string, OpHandler> = {}) {
  const table: Record<string, OpHandler> = {
    'user.show': () => ({ data: userResource() }),
    'user.permissions': () => ({
      data: { role: 'analyst', permissions: ['scans.read', 'scans.run', 'reports.read'] },
    }),
    ...handlers,
  }
  fake.handle('api.cancel', () => ({ cancelled: true }))
  fake.handle('api.call', async (p: ApiPayload) => {
    const handler = table[p.op]
    if (!handler) return new Fail({ code: 'INTERNAL', message: `no fake for ${p.op}` })
    const out = await handler(p)
    return out instanceof Fail ? out : answer(out)
  })
  return table
}

/** The api.call payloads sent for `op`. */
export function callsOf(fake: FakeScandesk, op: string): ApiPayload[] {
  return fake.calls
    .filter((c) => c.channel === 'api.call' && (c.payload as ApiPayload).op === op)
    .map((c) => c.payload as ApiPayload)
}

/** Elements with a data-testid anywhere in the document (dialogs are appended to body). */
export function byTestId(id: string): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)]
}

/** The native input of an Element Plus input carrying `id` as data-testid. */
export function inputOf(id: string): HTMLInputElement {
  const el = document.querySelector<HTMLInputElement>(
    `[data-testid="${id}"] input, input[data-testid="${id}"]`,
  )
  if (!el) throw new Error(`no input ${id}`)
  return el
}

/** Types into an input and lets Vue update. */
export async function typeInto(id: string, value: string): Promise<void> {
  const el = inputOf(id)
  el.value = value
  el.dispatchEvent(new Event('input'))
  await flushPromises()
}

/** Clicks the element with `id` and lets every answer land. */
export async function click(id: string): Promise<void> {
  const el = byTestId(id)[0]
  if (!el) throw new Error(`no element ${id}`)
  el.click()
  await flushPromises()
}

/** Element Plus shows a form item's error after a short debounce (100 ms): wait past it. */
export async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 130))
  await flushPromises()
}

/** The form-item error text shown under the input with `id` (once the debounce has passed). */
export async function errorUnder(id: string): Promise<string> {
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
