import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { catchAllRouter } from '@/test/composables'
import { theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { connectivity, outboxItem } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import ConnectivityIndicator from './ConnectivityIndicator.vue'

const fake = useFakeApp({ store: 'app' })
let wrapper: ReturnType<typeof mountWithApp> | null = null
afterEach(() => {
  wrapper?.unmount()
  wrapper = null
})

async function mountIndicator() {
  wrapper = mountWithApp(ConnectivityIndicator, { global: { plugins: [catchAllRouter()] } })
  await flushPromises()
}

async function openPanel(): Promise<void> {
  theTestId('connectivity').click()
  await flushPromises()
}

describe('the connectivity indicator', () => {
  it('says "Checking…" until main answers, never "Online"', async () => {
    await mountIndicator()
    expect(theTestId('connectivity').textContent?.trim()).toBe('Checking…')
    expect(theTestId('connectivity').dataset.state).toBe('checking')
  })

  it.each([
    ['online', 'Online'],
    ['offline', 'Offline — no network'],
    ['unreachable', 'Service unreachable'],
    ['signed-out', 'Signed out'],
    ['work-offline', 'Working offline'],
  ] as const)('shows state %s as "%s"', async (state, text) => {
    await mountIndicator()
    fake.emit('connectivity', connectivity(state))
    await flushPromises()
    expect(theTestId('connectivity').textContent?.trim()).toBe(text)
    expect(theTestId('connectivity').dataset.state).toBe(state)
  })

  it('tells why and when the next check runs', async () => {
    await mountIndicator()
    fake.emit(
      'connectivity',
      connectivity('unreachable', {
        message: 'The service did not answer within 30 s.',
        nextCheckAt: '2030-01-01T10:00:00Z',
      }),
    )
    await flushPromises()
    expect(theTestId('connectivity').getAttribute('aria-label')).toContain(
      'The service did not answer within 30 s. Next check:',
    )
    await openPanel()
    expect(theTestId('connectivity-details').textContent).toContain('Next check:')
  })

  it('switches "Work offline" on and then offers no check', async () => {
    await mountIndicator()
    await openPanel()
    expect(document.body.textContent).toContain('ScanDesk makes no request while this is on')
    expect(theTestId<HTMLButtonElement>('check-now').disabled).toBe(false)
    theTestId('work-offline-switch').click()
    await flushPromises()
    expect(fake.calls.filter((c) => c.channel === 'connectivity.setWorkOffline')).toEqual([
      { channel: 'connectivity.setWorkOffline', payload: { on: true } },
    ])
    expect(theTestId('connectivity').dataset.state).toBe('work-offline')
    expect(theTestId<HTMLButtonElement>('check-now').disabled).toBe(true)
  })

  it('checks the window’s account now', async () => {
    fake.handle('connectivity.check', () => connectivity('online'))
    await mountIndicator()
    await openPanel()
    theTestId('check-now').click()
    await flushPromises()
    expect(fake.calls.find((c) => c.channel === 'connectivity.check')?.payload).toEqual({
      accountId: 'acct-aaaa',
    })
    expect(theTestId('connectivity').dataset.state).toBe('online')
  })

  it('links to the outbox when writes wait there', async () => {
    fake.handle('outbox.list', () => [outboxItem('item-0001'), outboxItem('item-0002')])
    await mountIndicator()
    await openPanel()
    expect(theTestId('connectivity-outbox').textContent?.trim()).toBe('Outbox (2)')
  })
})
