// Scanners and port lists through the core against the real sandbox (issue 8): verify and sync
// take a little time (the sandbox's actionDelayMs) and fail when a scanner does not answer —
// the sandbox's switch is a host in the reserved .invalid domain (RFC 6761).
import { describe, expect, it } from 'vitest'
import { analystApi, useSandboxAndCore } from './fixture'

const DELAY = 300
const s = useSandboxAndCore({ each: 'analyst', sandbox: { actionDelayMs: DELAY } })

const { api, apiErr } = analystApi(s)

/** Runs an operation and says how long its answer took (never shorter than the delay). */
async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now()
  const value = await run()
  return { value, ms: performance.now() - t0 }
}

describe('scanners.verify', () => {
  it('takes the configured time and records a success', async () => {
    const before = await api('scanners.show', { path: { id: 'scr-001' } })
    const { value, ms } = await timed(() => api('scanners.verify', { path: { id: 'scr-001' } }))
    expect(ms).toBeGreaterThanOrEqual(DELAY - 5)
    expect(value.data.attributes).toMatchObject({
      verification_status: 'verified',
      verification_message: 'Scanner answered and is up to date',
      version: '9.4.2',
    })
    expect(Date.parse(String(value.data.attributes.last_verified_at))).toBeGreaterThan(
      Date.parse(String(before.data.attributes.last_verified_at)),
    )
  })

  it('fails for a scanner that does not answer, which then cannot be activated', async () => {
    await api('scanners.deactivate', { path: { id: 'scr-002' } })
    const moved = await api('scanners.update', {
      path: { id: 'scr-002' },
      body: { host: 'frankfurt.invalid' },
    })
    expect(moved.data.attributes).toMatchObject({ verification_status: 'unverified' })
    const failed = await api('scanners.verify', { path: { id: 'scr-002' } })
    expect(failed.data.attributes).toMatchObject({
      verification_status: 'failed',
      verification_message: 'Could not reach frankfurt.invalid:8443 (connection timed out)',
    })
    const refused = await apiErr('scanners.activate', { path: { id: 'scr-002' } })
    expect(refused).toMatchObject({ code: 'CONFLICT', status: 409 })
    expect(refused.message).toContain('failed its last verification')

    await api('scanners.update', { path: { id: 'scr-002' }, body: { host: '10.20.0.6' } })
    const ok = await api('scanners.verify', { path: { id: 'scr-002' } })
    expect(ok.data.attributes.verification_status).toBe('verified')
    const active = await api('scanners.activate', { path: { id: 'scr-002' } })
    expect(active.data.attributes.activated).toBe(true)
  })

  it('answers 404 for a scanner of another organization after the wait', async () => {
    const missing = await apiErr('scanners.verify', { path: { id: 'scr-005' } })
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404 })
  })
})

describe('port_lists.sync', () => {
  it('takes the configured time and records when the list was pushed', async () => {
    const before = await api('port_lists.show', { path: { id: 'prt-002' } })
    const { value, ms } = await timed(() => api('port_lists.sync', { path: { id: 'prt-002' } }))
    expect(ms).toBeGreaterThanOrEqual(DELAY - 5)
    expect(Date.parse(String(value.data.attributes.synced_at))).toBeGreaterThan(
      Date.parse(String(before.data.attributes.synced_at)),
    )
  })

  it('fails while an activated scanner of its product does not answer, leaving synced_at', async () => {
    const before = await api('port_lists.show', { path: { id: 'prt-002' } })
    // scr-002 is the organization's activated internal_scan scanner, like prt-002's product
    await api('scanners.update', { path: { id: 'scr-002' }, body: { host: 'frankfurt.invalid' } })
    const failed = await apiErr('port_lists.sync', { path: { id: 'prt-002' } })
    expect(failed).toMatchObject({ code: 'CONFLICT', status: 409 })
    expect(failed.message).toContain(
      'Port list prt-002 was not synced: scanner scr-002 (Internal scanner Frankfurt) did not answer. Could not reach frankfurt.invalid:8443 (connection timed out).',
    )
    const after = await api('port_lists.show', { path: { id: 'prt-002' } })
    expect(after.data.attributes.synced_at).toBe(before.data.attributes.synced_at)

    // a list of another product does not need that scanner
    const other = await api('port_lists.sync', { path: { id: 'prt-001' } })
    expect(other.data.attributes.synced_at).not.toBe(before.data.attributes.synced_at)

    // with the scanner deactivated the list syncs again
    await api('scanners.deactivate', { path: { id: 'scr-002' } })
    const synced = await api('port_lists.sync', { path: { id: 'prt-002' } })
    expect(synced.data.attributes.synced_at).not.toBe(before.data.attributes.synced_at)
  })

  it('refuses a deactivated list', async () => {
    const refused = await apiErr('port_lists.sync', { path: { id: 'prt-004' } })
    expect(refused).toMatchObject({ code: 'CONFLICT', status: 409 })
    expect(refused.message).toContain('is deactivated; activate it before syncing it')
  })
})
