import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { DEFAULT_POLICY } from '@contract/remediation'
import { useFakeApp } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { mountWithApp } from '@/test/mountApp'
import RemediationPolicySection from './RemediationPolicySection.vue'

type SetPayload = { accountId: string; policy: Record<string, number | null>; notify: boolean }

const fake = useFakeApp()
const sets = () =>
  fake.calls.filter((c) => c.channel === 'remediation.set').map((c) => c.payload as SetPayload)

function serve(fail = false) {
  fake.handle('remediation.get', () => ({
    policy: { ...DEFAULT_POLICY, low: null },
    notify: false,
    saved: true,
    savedAt: null,
  }))
  fake.handle('remediation.set', (p: SetPayload) =>
    fail
      ? new Fail({ code: 'UNKNOWN_ACCOUNT', message: 'This account is no longer in ScanDesk.' })
      : { policy: p.policy, notify: p.notify, saved: true, savedAt: '2030-01-01T00:00:00Z' },
  )
}

async function mountSection() {
  const w = mountWithApp(RemediationPolicySection, { props: { accountId: 'acct-aaaa' } })
  await flushPromises()
  return w
}

describe('the remediation policy section', () => {
  it('shows the stored policy and saves each change of days at once, for its account', async () => {
    serve()
    const w = await mountSection()
    const critical = w.find('[data-testid="policy-days-critical"] input')
    expect((critical.element as HTMLInputElement).value).toBe('15')
    expect(
      (w.find('[data-testid="policy-days-low"] input').element as HTMLInputElement).value,
    ).toBe('')
    await critical.setValue('7')
    await critical.trigger('change')
    await flushPromises()
    expect(sets()).toEqual([
      {
        accountId: 'acct-aaaa',
        policy: { critical: 7, high: 30, medium: 90, low: null },
        notify: false,
      },
    ])
    expect(w.text()).toContain('Saved.')
  })

  it('turns the overdue notifications on, and brings back the defaults', async () => {
    serve()
    const w = await mountSection()
    await w.find('[data-testid="policy-notify"]').trigger('click')
    await flushPromises()
    expect(sets().at(-1)).toMatchObject({ notify: true, policy: { low: null } })
    await w.find('[data-testid="policy-defaults"]').trigger('click')
    await flushPromises()
    expect(sets().at(-1)).toEqual({ accountId: 'acct-aaaa', policy: DEFAULT_POLICY, notify: true })
  })

  it('says why a save failed', async () => {
    serve(true)
    const w = await mountSection()
    await w.find('[data-testid="policy-notify"]').trigger('click')
    await flushPromises()
    expect(w.find('[role="alert"]').text()).toContain('no longer in ScanDesk')
  })
})
