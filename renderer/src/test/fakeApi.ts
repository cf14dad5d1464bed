// api.call answered for the screens of an analyst in unit tests.
import { Fail, type FakeScandesk } from './fakeScandesk'

/** An api.call as a test reads it back. */
export type ApiCall = { op: string; input?: { path?: Record<string, string>; body?: unknown } }
/** Answers of api.call by operation. */
export type ApiAnswers = Record<string, (p: ApiCall) => unknown>

/** A read's answer: `data` as the service's `{ data }`. */
export const answer = (data: unknown) => ({ data: { data }, fetchedAt: '', fromCache: false })

/**
 * Answers api.call: `over` first, then an analyst's permissions (none beyond the role) and
 * organization (Acme), then `base`; any other operation fails.
 */
export function serveAnalyst(fake: FakeScandesk, base: ApiAnswers, over: ApiAnswers = {}): void {
  fake.handle('api.call', (p: ApiCall) => {
    if (over[p.op]) return over[p.op](p)
    if (p.op === 'user.permissions') return answer({ role: 'analyst', permissions: [] })
    if (p.op === 'user.organization')
      return answer({ id: 'org-1', type: 'organization', attributes: { name: 'Acme' } })
    if (base[p.op]) return base[p.op](p)
    return new Fail({ code: 'INTERNAL', message: `unexpected ${p.op}` })
  })
}
