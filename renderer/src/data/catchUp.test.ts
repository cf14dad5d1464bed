import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import type { ConnectivityState } from '@contract/offline'
import { apiCalls, listAnswer, mountComposable, useTwoAccounts } from '@/test/composables'
import { deferred, Fail } from '@/test/fakeScandesk'
import { connectivity } from '@/test/fixtures'
import { useOperation } from './useOperation'

const fake = useTwoAccounts()

let minute = 0
function report(accountId: string, state: ConnectivityState): void {
  const checkedAt = `2030-01-01T00:${String(minute++).padStart(2, '0')}:00Z`
  fake.emit('connectivity', connectivity(state, { accountId, checkedAt }))
}

const callsFor = (op: string) => apiCalls(fake).filter((c) => c.op === op)

describe('catching up when the service is back', () => {
  it('asks again every read of that account that shows the offline copy', async () => {
    let cached = true
    fake.handle('api.call', (p: { op: string }) =>
      listAnswer(p.op, 1, 1, p.op === 'targets.list' && cached),
    )
    report('acct-aaaa', 'unreachable')
    const copy = mountComposable(() => useOperation('targets.list', {}))
    const fresh = mountComposable(() => useOperation('scans.list', {}))
    await flushPromises()
    expect(copy.result.fromCache.value).toBe(true)
    cached = false
    report('acct-aaaa', 'online')
    await flushPromises()
    expect(callsFor('targets.list')).toHaveLength(2)
    expect(callsFor('scans.list')).toHaveLength(1)
    expect(copy.result.fromCache.value).toBe(false)
    expect(fresh.result.fromCache.value).toBe(false)
  })

  it('asks for statuses first and the rest once they are in (no copy says a scan still runs)', async () => {
    let back = false
    const running = deferred<unknown>()
    fake.handle('api.call', (p: { op: string }) => {
      if (back && p.op === 'scans.running') return running.promise
      return listAnswer(p.op, 1, 1, !back)
    })
    report('acct-aaaa', 'unreachable')
    const list = mountComposable(() => useOperation('targets.list', {}))
    mountComposable(() => useOperation('scans.running', {}))
    await flushPromises()
    expect(list.result.fromCache.value).toBe(true)
    back = true
    report('acct-aaaa', 'online')
    await flushPromises()
    expect(callsFor('scans.running')).toHaveLength(2)
    expect(callsFor('targets.list')).toHaveLength(1)
    running.resolve(listAnswer('scans.running', 1))
    await flushPromises()
    expect(callsFor('targets.list')).toHaveLength(2)
    expect(list.result.fromCache.value).toBe(false)
  })

  it('leaves the reads alone when another account comes back, or nothing changed', async () => {
    fake.handle('api.call', () => listAnswer('A', 1, 1, true))
    report('acct-aaaa', 'offline')
    mountComposable(() => useOperation('targets.list', {}))
    await flushPromises()
    report('acct-bbbb', 'unreachable')
    report('acct-bbbb', 'online')
    report('acct-aaaa', 'offline')
    await flushPromises()
    expect(callsFor('targets.list')).toHaveLength(1)
  })

  it('catches up when "Work offline" is switched off', async () => {
    fake.handle('api.call', () => listAnswer('A', 1, 1, true))
    report('acct-aaaa', 'online')
    fake.emit('connectivity.mode', { workOffline: true, network: true })
    mountComposable(() => useOperation('targets.list', {}))
    await flushPromises()
    fake.emit('connectivity.mode', { workOffline: false, network: true })
    await flushPromises()
    expect(callsFor('targets.list')).toHaveLength(2)
  })
})

describe('a read that failed while the service was out of reach (issue 36 §15)', () => {
  it('is asked again by itself once "Work offline" is switched off, and shows the answer', async () => {
    let offline = true
    fake.handle('api.call', (p: { op: string }) =>
      offline
        ? new Fail({ code: 'OFFLINE', message: '“Work offline” is on: ScanDesk sends no request.' })
        : listAnswer(p.op, 2),
    )
    report('acct-aaaa', 'online')
    fake.emit('connectivity.mode', { workOffline: true, network: true })
    const read = mountComposable(() => useOperation('webhooks.list', {}))
    await flushPromises()
    expect(read.result.error.value?.code).toBe('OFFLINE')
    offline = false
    fake.emit('connectivity.mode', { workOffline: false, network: true })
    await flushPromises()
    expect(callsFor('webhooks.list')).toHaveLength(2)
    expect(read.result.error.value).toBeNull()
    expect(read.result.data.value).toMatchObject({ meta: { pagination: { total_count: 2 } } })
  })

  it('is asked again when the service answers again, but not one the service refused', async () => {
    fake.handle('api.call', (p: { op: string }) =>
      p.op === 'targets.list'
        ? new Fail({ code: 'OFFLINE', message: 'The service cannot be reached.' })
        : new Fail({ code: 'FORBIDDEN', message: 'Not yours.' }),
    )
    report('acct-aaaa', 'unreachable')
    mountComposable(() => useOperation('targets.list', {}))
    mountComposable(() => useOperation('webhooks.list', {}))
    await flushPromises()
    report('acct-aaaa', 'online')
    await flushPromises()
    expect(callsFor('targets.list')).toHaveLength(2)
    expect(callsFor('webhooks.list')).toHaveLength(1)
  })

  it('is not asked again while nothing shows it (no herd for screens left behind)', async () => {
    fake.handle('api.call', () => new Fail({ code: 'OFFLINE', message: 'Unreachable.' }))
    report('acct-aaaa', 'unreachable')
    const left = mountComposable(() => useOperation('targets.list', {}))
    await flushPromises()
    left.unmount()
    report('acct-aaaa', 'online')
    await flushPromises()
    expect(callsFor('targets.list')).toHaveLength(1)
  })
})
