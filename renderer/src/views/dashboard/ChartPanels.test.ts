import { flushPromises } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { detailName, resourceByKey } from '@/resources'
import { resetNotifyForTests } from '@/composables/notify'
import { byTestId, theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { mountWithApp } from '@/test/mountApp'
import PciCompliancePanel from './PciCompliancePanel.vue'
import TopVulnerabilitiesPanel from './TopVulnerabilitiesPanel.vue'
import VulnerabilityTotalPanel from './VulnerabilityTotalPanel.vue'
import { panelRouter } from './panelTestKit'

const fake = useFakeApp()
beforeEach(() => resetNotifyForTests())

const router = () =>
  panelRouter({ '/vulnerabilities/:id': detailName(resourceByKey('vulnerabilities')!) })
const mount = async (component: Parameters<typeof mountWithApp>[0]) => {
  mountWithApp(component, { global: { plugins: [router()], stubs: { Echarts: true } } })
  await flushPromises()
}
/** The element once it is there (the chart component is loaded on demand). */
const ready = (id: string) => vi.waitFor(() => theTestId(id), { timeout: 5_000 })
const answer = (data: unknown) => ({ data, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })
/** What a bar's link adds: the findings first seen before the widget was read, and the count. */
const asCounted = (n: string) =>
  `first_seen_before=2030-01-01T00:00:00Z&counted=${n}&counted_at=2030-01-01T00:00:00Z`
const cells = async (table: string) =>
  [...(await ready(table)).querySelectorAll('tbody tr')].map((tr) => [
    tr.querySelector('th')?.textContent?.trim(),
    tr.querySelector('td')?.textContent?.trim(),
    tr.querySelector('a')?.getAttribute('href') ?? null,
  ])
const ops = () =>
  fake.calls.filter((c) => c.channel === 'api.call').map((c) => (c.payload as { op: string }).op)

describe('the vulnerabilities chart of the dashboard', () => {
  it('counts findings by severity, each row leading to the list of that severity', async () => {
    fake.handle('api.call', () =>
      answer({ data: { total: 6, critical: 1, high: 2, medium: 0, low: 3, info: 0 } }),
    )
    await mount(VulnerabilityTotalPanel)
    expect(ops()).toContain('vulnerabilities.total_widget')
    expect(await cells('vulnerability-total-panel-chart-table')).toEqual([
      ['Critical', '1', `/vulnerabilities?severity=critical&${asCounted('1')}`],
      ['High', '2', `/vulnerabilities?severity=high&${asCounted('2')}`],
      ['Medium', '0', `/vulnerabilities?severity=medium&${asCounted('0')}`],
      ['Low', '3', `/vulnerabilities?severity=low&${asCounted('3')}`],
      ['Info', '0', `/vulnerabilities?severity=info&${asCounted('0')}`],
    ])
    expect(
      theTestId('vulnerability-total-panel-chart').querySelector('figcaption')?.textContent,
    ).toContain('(6 in all)')
  })

  it('shows the service’s refusal with a Retry that asks again', async () => {
    let n = 0
    fake.handle('api.call', () => {
      n++
      return n === 1
        ? new Fail({ code: 'SERVER', message: 'The service failed.' })
        : answer({ data: { total: 0, critical: 0, high: 0, medium: 0, low: 0, info: 0 } })
    })
    await mount(VulnerabilityTotalPanel)
    expect(theTestId('vulnerability-total-panel-error').textContent).toContain(
      'The service failed.',
    )
    theTestId('vulnerability-total-panel-error').querySelector('button')!.click()
    expect((await ready('vulnerability-total-panel-chart-none')).textContent).toBe('No findings.')
    expect(byTestId('vulnerability-total-panel-error')).toHaveLength(0)
  })
})

describe('the PCI chart of the dashboard', () => {
  const scans = (n: number) =>
    answer({
      data: Array.from({ length: n }, (_, i) => ({
        id: `scn-${i}`,
        type: 'scan',
        attributes: { name: `Scan ${i}`, status: 'completed', progress: 100 },
      })),
      meta: {},
    })
  /** The widget's answer, and how many scans completed lately and run now. */
  const serve = (widget: unknown, completed: number, running: number) =>
    fake.handle('api.call', (p: { op: string }) =>
      p.op === 'scans.recently_completed'
        ? scans(completed)
        : p.op === 'scans.running'
          ? scans(running)
          : answer(widget),
    )
  const caption = () =>
    theTestId('pci-compliance-panel-chart').querySelector('figcaption')?.textContent

  it('says the verdict in words and leads to failing and passing findings', async () => {
    serve({ data: { pass: 4, fail: 2, total: 6, compliant: false } }, 2, 0)
    await mount(PciCompliancePanel)
    expect(
      theTestId('pci-compliance-panel-chart').querySelector('figcaption')?.textContent,
    ).toContain('Not PCI compliant')
    expect(await cells('pci-compliance-panel-chart-table')).toEqual([
      ['Fail PCI DSS', '2', `/vulnerabilities?pci_compliant=false&${asCounted('2')}`],
      ['Pass PCI DSS', '4', `/vulnerabilities?pci_compliant=true&${asCounted('4')}`],
    ])
  })

  it('does not call the account compliant before any scan has completed', async () => {
    serve({ data: { pass: 0, fail: 0, total: 0, compliant: true } }, 0, 1)
    await mount(PciCompliancePanel)
    await ready('pci-compliance-panel-chart')
    expect(caption()).toContain('PCI compliance not known yet: no scan has completed.')
    expect(ops()).toEqual(
      expect.arrayContaining([
        'vulnerabilities.pci_compliant_widget',
        'scans.recently_completed',
        'scans.running',
      ]),
    )
  })
})

describe('the top vulnerabilities chart of the dashboard', () => {
  it('asks for the top findings and leads from each to its page', async () => {
    fake.handle('api.call', () =>
      answer({
        data: [
          {
            id: 'vul-7',
            type: 'vulnerability',
            attributes: {
              title: 'Log4Shell',
              severity: 'critical',
              cvss_score: 10,
              host_ip: '10.0.0.9',
            },
          },
        ],
        meta: {},
      }),
    )
    await mount(TopVulnerabilitiesPanel)
    const call = fake.calls.find((c) => c.channel === 'api.call')!.payload as {
      op: string
      input: unknown
    }
    expect(call.op).toBe('vulnerabilities.top_widget')
    expect(call.input).toEqual({ query: { limit: 100 } })
    expect(await cells('top-vulnerabilities-panel-chart-table')).toEqual([
      ['Log4Shell', '10', '/vulnerabilities/vul-7'],
    ])
  })

  it('says when there is nothing to show', async () => {
    fake.handle('api.call', () => answer({ data: [], meta: {} }))
    await mount(TopVulnerabilitiesPanel)
    expect(theTestId('top-vulnerabilities-panel-empty').textContent).toContain('No findings.')
  })
})
