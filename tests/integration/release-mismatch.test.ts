// An account set to a newer release than its service runs: a 404 for an operation the account's
// release has says so (RELEASE_MISMATCH, with what to do), not "could not find that record";
// a record that is really missing stays NOT_FOUND, and detecting the release names the real one.
import { describe, expect, it } from 'vitest'
import type { ReleaseDetection } from '@contract/sessions'
import { addAnalyst } from './core-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ sandbox: { release: '5.3.0' } })

describe('an account set to a newer release than its service', () => {
  it('says the service lacks the operation and offers to detect the release', async () => {
    const account = await addAnalyst(s.t, s.sandbox, { release: 'latest' })
    const call = (op: string, input?: unknown) =>
      s.t.err('api.call', { accountId: account.id, op, input })

    // No path parameters: a 404 can only mean the operation is missing.
    const list = await call('advanced_reports.list')
    expect(list.code).toBe('RELEASE_MISMATCH')
    expect(list.status).toBe(404)
    expect(list.message).toContain('release latest')
    expect(list.message).toMatch(/Detect the release/)

    // With an id: the service's own words say it has no such route.
    const show = await call('advanced_reports.show', { path: { id: 'adr-001' } })
    expect(show.code).toBe('RELEASE_MISMATCH')

    // A record the service has not got stays a missing record.
    const missing = await call('targets.show', { path: { id: 'tgt-999' } })
    expect(missing.code).toBe('NOT_FOUND')
    expect(missing.message).toBe('The service could not find that record.')

    const detected = await s.t.ok<ReleaseDetection>('accounts.detectRelease', {
      accountId: account.id,
    })
    expect(detected.release).toBe('5.3.0')
  })
})
