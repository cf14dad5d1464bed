import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { findOperation } from '@contract/catalog'
import { CONNECTIVITY_STATES, type ConnectivityState } from '@contract/offline'
import ReadError from '@/components/kit/ReadError.vue'
import { byTestId, theTestId } from '@/test/dom'
import { mountComposable } from '@/test/composables'
import { useFakeApp } from '@/test/fakeApp'
import { connectivity } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import { NO_RETRY_WHILE_OFFLINE, offlineReason, useOfflineGate } from './offlineGate'

const fake = useFakeApp({ store: 'app' })

describe('which operations wait for the service', () => {
  const outOfReach: ConnectivityState[] = ['work-offline', 'offline', 'unreachable']

  it('holds back online-only writes while the service is out of reach, saying why', () => {
    expect(findOperation('scans.start')?.offline).toBe('online-only')
    for (const state of CONNECTIVITY_STATES) {
      const reason = offlineReason('scans.start', state)
      if (outOfReach.includes(state)) expect(reason).toMatch(/^This needs the service/)
      else expect(reason).toBeNull()
    }
    expect(offlineReason('scans.start', 'work-offline')).toContain('“Work offline” is on')
    expect(offlineReason('targets.create', 'offline')).toContain('no network')
    expect(offlineReason('scans.stop', 'unreachable')).toContain('cannot be reached')
  })

  it('never holds back queued writes or cached reads, nor an unknown operation', () => {
    expect(findOperation('notifications.mark_read')?.offline).toBe('queue')
    expect(findOperation('scans.list')?.offline).toBe('cache')
    for (const state of outOfReach) {
      expect(offlineReason('notifications.mark_read', state)).toBeNull()
      expect(offlineReason('notifications.mark_all_seen', state)).toBeNull()
      expect(offlineReason('scans.list', state)).toBeNull()
      expect(offlineReason('no.such_op', state)).toBeNull()
      expect(offlineReason(undefined, state)).toBeNull()
    }
  })
})

describe('the gate of the window’s account', () => {
  it('follows the account’s connectivity and the “Work offline” switch', async () => {
    const { result: gate, unmount } = mountComposable(() => useOfflineGate())
    fake.emit('connectivity', connectivity('online'))
    await flushPromises()
    expect(gate.blocked('scans.start')).toBeNull()
    expect(gate.retryOffered.value).toBe(true)

    fake.emit('connectivity', connectivity('unreachable'))
    await flushPromises()
    expect(gate.blocked('scans.start')).toContain('cannot be reached')
    expect(gate.retryOffered.value).toBe(true)

    fake.emit('connectivity.mode', { workOffline: true, network: true })
    await flushPromises()
    expect(gate.state.value).toBe('work-offline')
    expect(gate.blockedAny(['notifications.mark_read', 'targets.create'])).toContain(
      '“Work offline” is on',
    )
    expect(gate.blockedAny(['notifications.mark_read'])).toBeNull()
    expect(gate.retryOffered.value).toBe(false)
    unmount()
  })
})

describe('Retry after a failed read', () => {
  const error = { code: 'OFFLINE', message: 'No copy of this yet.' } as const

  it('is offered online, and replaced by how to try again while “Work offline” is on', async () => {
    const wrapper = mountWithApp(ReadError, { props: { error } })
    await flushPromises()
    expect(theTestId('resource-retry').textContent?.trim()).toBe('Retry')
    expect(byTestId('retry-off')).toHaveLength(0)

    fake.emit('connectivity.mode', { workOffline: true, network: true })
    await flushPromises()
    expect(byTestId('resource-retry')).toHaveLength(0)
    expect(theTestId('retry-off').textContent).toBe(NO_RETRY_WHILE_OFFLINE)
    expect(theTestId('resource-error').textContent).toContain('No copy of this yet.')

    fake.emit('connectivity.mode', { workOffline: false, network: true })
    await flushPromises()
    theTestId('resource-retry').click()
    expect(wrapper.emitted('retry')).toHaveLength(1)
    wrapper.unmount()
  })
})
