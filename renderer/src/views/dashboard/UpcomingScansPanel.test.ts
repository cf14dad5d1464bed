import { flushPromises } from '@vue/test-utils'
import { byTestId } from '@/test/dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useAccountsStore } from '@/stores/accounts'
import { useFakeApp } from '@/test/fakeApp'
import { deferred, Fail } from '@/test/fakeScandesk'
import { account, upcomingAnswer } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import UpcomingScansPanel from './UpcomingScansPanel.vue'

const fake = useFakeApp()
afterEach(() => {
  vi.useRealTimers()
})

const apiCalls = () => fake.calls.filter((c) => c.channel === 'api.call')

describe('the upcoming scans panel', () => {
  it('shows a skeleton only once loading takes longer than 100 ms', async () => {
    vi.useFakeTimers()
    const answer = deferred<unknown>()
    fake.handle('api.call', () => answer.promise)
    mountWithApp(UpcomingScansPanel)
    await vi.advanceTimersByTimeAsync(50)
    expect(byTestId('upcoming-scans-loading')).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(100)
    expect(byTestId('upcoming-scans-loading')).toHaveLength(1)
    answer.resolve(upcomingAnswer('A', 2))
    await vi.advanceTimersByTimeAsync(0)
    expect(byTestId('upcoming-scans-loading')).toHaveLength(0)
    expect(byTestId('upcoming-scan-row')).toHaveLength(2)
  })

  it('lists name, description and the time in the scan’s own zone', async () => {
    const answer = upcomingAnswer('A', 1)
    answer.data.data[0].attributes.in_timezone = 'Asia/Tokyo'
    answer.data.data[0].attributes.next_scheduled_at = '2030-06-01T12:00:00Z'
    fake.handle('api.call', () => answer)
    mountWithApp(UpcomingScansPanel)
    await flushPromises()
    const row = byTestId('upcoming-scan-row')[0]
    expect(row.textContent).toContain('A scan 1')
    expect(row.textContent).toContain('A description 1')
    expect(row.textContent).toContain('Asia/Tokyo')
    expect(row.querySelector('time')?.getAttribute('datetime')).toBe('2030-06-01T12:00:00Z')
  })

  it('shows hostile names as text, never as markup', async () => {
    const answer = upcomingAnswer('A', 1)
    answer.data.data[0].attributes.name = '<img src=x onerror="alert(1)">'
    fake.handle('api.call', () => answer)
    mountWithApp(UpcomingScansPanel)
    await flushPromises()
    const row = byTestId('upcoming-scan-row')[0]
    expect(row.querySelector('img')).toBeNull()
    expect(row.textContent).toContain('<img src=x onerror="alert(1)">')
  })

  it('says so when nothing is scheduled', async () => {
    fake.handle('api.call', () => upcomingAnswer('A', 0))
    mountWithApp(UpcomingScansPanel)
    await flushPromises()
    expect(byTestId('upcoming-scans-empty')[0].textContent).toContain('No scans are scheduled.')
    expect(byTestId('upcoming-scan-row')).toHaveLength(0)
  })

  it('shows the error with a Retry button that loads again', async () => {
    fake.handle(
      'api.call',
      () => new Fail({ code: 'OFFLINE', message: 'The service cannot be reached.' }),
    )
    const wrapper = mountWithApp(UpcomingScansPanel)
    await flushPromises()
    const error = byTestId('upcoming-scans-error')[0]
    expect(error.textContent).toContain('The service cannot be reached.')
    fake.handle('api.call', () => upcomingAnswer('A', 3))
    const retry = wrapper.findAll('button').find((b) => b.text() === 'Retry')!
    await retry.trigger('click')
    await flushPromises()
    expect(byTestId('upcoming-scans-error')).toHaveLength(0)
    expect(byTestId('upcoming-scan-row')).toHaveLength(3)
  })

  it('asks again with the chosen limit', async () => {
    fake.handle('api.call', (p: { input: { query: { limit: number } } }) =>
      upcomingAnswer('A', Math.min(p.input.query.limit, 7)),
    )
    const wrapper = mountWithApp(UpcomingScansPanel)
    await flushPromises()
    expect(byTestId('upcoming-scan-row')).toHaveLength(7)
    wrapper.findComponent({ name: 'ElSelect' }).vm.$emit('update:modelValue', 5)
    await flushPromises()
    expect(apiCalls().at(-1)?.payload).toMatchObject({ input: { query: { limit: 5 } } })
    expect(byTestId('upcoming-scan-row')).toHaveLength(5)
  })

  it('refreshes on demand', async () => {
    fake.handle('api.call', () => upcomingAnswer('A', 1))
    const wrapper = mountWithApp(UpcomingScansPanel)
    await flushPromises()
    await wrapper.find('[data-testid="upcoming-scans-refresh"]').trigger('click')
    await flushPromises()
    expect(apiCalls()).toHaveLength(2)
  })
})

describe('the upcoming scans panel and sign-in', () => {
  it('offers to sign in when the account is signed out, and loads once it is back', async () => {
    fake.handle(
      'api.call',
      () => new Fail({ code: 'NOT_SIGNED_IN', message: 'Sign in to this account first.' }),
    )
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { signedIn: false })],
      activeId: 'acct-aaaa',
    })
    const wrapper = mountWithApp(UpcomingScansPanel)
    await flushPromises()
    expect(wrapper.findAll('button').some((b) => b.text() === 'Sign in…')).toBe(true)
    fake.handle('api.call', () => upcomingAnswer('A', 2))
    fake.emit('accounts.changed', { accounts: [account('acct-aaaa')], activeId: 'acct-aaaa' })
    await flushPromises()
    expect(byTestId('upcoming-scan-row')).toHaveLength(2)
  })
})

describe('the upcoming scans panel on the data layer', () => {
  it('keeps the rows shown while another limit loads', async () => {
    const held = deferred<unknown>()
    fake.handle('api.call', (p: { input: { query: { limit: number } } }) =>
      p.input.query.limit === 5 ? held.promise : upcomingAnswer('A', 7),
    )
    const wrapper = mountWithApp(UpcomingScansPanel)
    await flushPromises()
    wrapper.findComponent({ name: 'ElSelect' }).vm.$emit('update:modelValue', 5)
    await flushPromises()
    expect(byTestId('upcoming-scan-row')).toHaveLength(7)
    held.resolve(upcomingAnswer('A', 5))
    await flushPromises()
    expect(byTestId('upcoming-scan-row')).toHaveLength(5)
  })

  it('shows nothing of the previous account after a switch and asks for the new one', async () => {
    const forB = deferred<unknown>()
    fake.handle('accounts.setActive', (p: { accountId: string }) => ({
      accounts: [account('acct-aaaa'), account('acct-bbbb')],
      activeId: p.accountId,
    }))
    fake.handle('api.cancel', () => ({ cancelled: true }))
    fake.handle('api.call', (p: { accountId: string }) =>
      p.accountId === 'acct-aaaa' ? upcomingAnswer('A', 2) : forB.promise,
    )
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa'), account('acct-bbbb')],
      activeId: 'acct-aaaa',
    })
    mountWithApp(UpcomingScansPanel)
    await flushPromises()
    expect(byTestId('upcoming-scan-row')).toHaveLength(2)

    await useAccountsStore().setActive('acct-bbbb')
    await flushPromises()
    expect(byTestId('upcoming-scan-row')).toHaveLength(0)
    expect(apiCalls().at(-1)?.payload).toMatchObject({ accountId: 'acct-bbbb' })
    forB.resolve(upcomingAnswer('B', 1))
    await flushPromises()
    expect(byTestId('upcoming-scan-row')[0].textContent).toContain('B scan 1')
  })
})
