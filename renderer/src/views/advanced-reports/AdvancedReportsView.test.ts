import { flushPromises } from '@vue/test-utils'
import { byTestId } from '@/test/dom'
import { describe, expect, it } from 'vitest'
import { useAccountsStore } from '@/stores/accounts'
import { useFakeBridge } from '@/test/fakeApp'
import { account, reportsAnswer } from '@/test/fixtures'
import { mountScreen } from '@/test/composables'
import AdvancedReportsView from './AdvancedReportsView.vue'

interface ApiPayload {
  op: string
  input: { body?: Record<string, unknown> }
}

const fake = useFakeBridge((fake) => {
  fake.handle('exports.list', () => [])
  fake.handle('api.call', (p: ApiPayload) => {
    if (p.op === 'advanced_reports.list') return reportsAnswer(2)
    if (p.op === 'advanced_reports.create')
      return {
        data: { data: { id: 'adr-100', type: 'advanced_report', attributes: p.input.body } },
        fetchedAt: '',
        fromCache: false,
      }
    throw new Error(`unexpected ${p.op}`)
  })
  useAccountsStore()
})

// The screen's own operations (the shell also reads the user's permissions).
const ops = () =>
  fake.calls
    .filter((c) => c.channel === 'api.call')
    .map((c) => (c.payload as ApiPayload).op)
    .filter((op) => op.startsWith('advanced_reports.'))

function activate(release: string): void {
  fake.emit('accounts.changed', {
    accounts: [account('acct-aaaa', { release: release as 'latest' })],
    activeId: 'acct-aaaa',
  })
}

describe('advanced reports and the account’s release', () => {
  it('explains that a 5.3.0 service has no advanced reports and asks nothing', async () => {
    activate('5.3.0')
    mountScreen(AdvancedReportsView)
    await flushPromises()
    expect(byTestId('not-in-release')[0].textContent).toContain('5.3.0')
    expect(ops()).toEqual([])
  })

  it('lists them on a 5.4.2 service', async () => {
    activate('5.4.2')
    mountScreen(AdvancedReportsView)
    await flushPromises()
    expect(ops()).toEqual(['advanced_reports.list'])
    expect(byTestId('advanced-report-row')).toHaveLength(2)
  })
})

describe('creating an advanced report', () => {
  it('checks the form with the catalog’s schema before sending', async () => {
    activate('latest')
    mountScreen(AdvancedReportsView)
    await flushPromises()
    byTestId('adr-create')[0].click()
    await flushPromises()
    byTestId('adr-save')[0].click()
    await flushPromises()
    const nameItem = document
      .querySelector('input[data-testid="adr-name"]')!
      .closest('.el-form-item')
    expect(nameItem?.classList.contains('is-error')).toBe(true)
    const sectionsItem = byTestId('adr-sections')[0].closest('.el-form-item')
    expect(sectionsItem?.classList.contains('is-error')).toBe(false)
    expect(ops()).not.toContain('advanced_reports.create')
  })

  it('sends the body in the wire’s names and reloads the list', async () => {
    activate('latest')
    const wrapper = mountScreen(AdvancedReportsView)
    await flushPromises()
    byTestId('adr-create')[0].click()
    await flushPromises()
    const name = document.querySelector<HTMLInputElement>('input[data-testid="adr-name"]')!
    name.value = 'Critical findings'
    name.dispatchEvent(new Event('input'))
    const from = document.querySelector<HTMLInputElement>('input[data-testid="adr-date-from"]')!
    from.value = '2030-01-01'
    from.dispatchEvent(new Event('input'))
    await flushPromises()
    byTestId('adr-save')[0].click()
    await flushPromises()
    const create = fake.calls.find(
      (c) => c.channel === 'api.call' && (c.payload as ApiPayload).op === 'advanced_reports.create',
    )
    expect((create?.payload as ApiPayload).input.body).toEqual({
      name: 'Critical findings',
      report_type: 'executive_summary',
      filters: { date_from: '2030-01-01' },
      sections: ['summary', 'findings'],
    })
    expect(ops().filter((o) => o === 'advanced_reports.list')).toHaveLength(2)
    wrapper.unmount()
  })

  it('has one New button, whose form leads to the plain form of the catalog’s fields', async () => {
    activate('latest')
    const wrapper = mountScreen(AdvancedReportsView)
    await flushPromises()
    const news = [...document.querySelectorAll('button')].filter((b) =>
      /New advanced report/.test(b.textContent ?? ''),
    )
    expect(news).toHaveLength(1)
    expect(byTestId('resource-create')).toHaveLength(0)
    byTestId('adr-create')[0].click()
    await flushPromises()
    expect(byTestId('advanced-report-form')).toHaveLength(1)
    byTestId('adr-plain-form')[0].click()
    await flushPromises()
    // The plain form is the generic one of advanced_reports.create; this page's form is closed.
    const plain = byTestId('operation-form').find((f) => f.closest('.el-dialog'))
    expect(plain?.querySelector('[data-field="name"]')).not.toBeNull()
    expect(plain?.querySelector('[data-field="filters"]')).toBeNull()
    const shownDialogs = [...document.querySelectorAll<HTMLElement>('.el-overlay')].filter(
      (o) => o.style.display !== 'none',
    )
    expect(shownDialogs.map((o) => o.querySelector('.el-dialog__title')?.textContent)).toEqual([
      'New advanced report (plain form)',
    ])
    wrapper.unmount()
  })
})
