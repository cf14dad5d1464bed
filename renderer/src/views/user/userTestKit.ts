// Helpers for the My account unit tests: a fake service behind api.call, answered per op id.
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

// The DOM helpers the sections' tests use come from the renderer's one DOM test kit.
export {
  byTestId,
  click,
  errorUnder,
  formSettled,
  inputOf,
  settle,
  submitWith,
  typeInto,
} from '@/test/dom'
export { invalid } from '@/test/fakeScandesk'
