// Issue 36 §18: 11.3.2's report picker offers the reports of external scans only, and a quarter
// without any run in the service's history says when findings were first seen in it nonetheless.
import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { pciDataFor } from '@contract/pci/requirements'
import { byTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import { pciAnswer, pciWorld, type PciWorld } from './pciWorld'
import SaqPciReportPicker from './SaqPciReportPicker.vue'
import SaqPciRuns from './SaqPciRuns.vue'

const fake = useFakeApp()
let world: PciWorld
beforeEach(() => {
  world = pciWorld()
  vi.useFakeTimers({ now: world.now, toFake: ['Date'] })
  fake.handle('api.call', (p: Parameters<typeof pciAnswer>[1]) => pciAnswer(world, p))
})
afterEach(() => vi.useRealTimers())

const text = (el: Element | undefined) => el?.textContent?.replace(/\s+/g, ' ').trim() ?? ''
async function settle(): Promise<void> {
  for (let i = 0; i < 6; i++) await flushPromises()
}

describe('the report picker of a scanning requirement', () => {
  it('offers 11.3.2 the reports of external scans, keeps the unknown apart and says what it left out', async () => {
    mountWithApp(SaqPciReportPicker, { props: { requirement: '11.3.2', scope: 'external' } })
    await settle()
    const options = byTestId('saq-pci-report-option')
    expect(options.map((o) => [o.dataset.id, o.dataset.scope ?? 'fits'])).toEqual([
      ['r-ext', 'fits'],
      ['r-none', 'unknown'],
    ])
    expect(text(byTestId('saq-pci-report-left')[0])).toBe(
      '1 report of internal scans is not offered for 11.3.2.',
    )
  })

  it('offers 6.3.3 every report', async () => {
    mountWithApp(SaqPciReportPicker, { props: { requirement: '6.3.3', scope: null } })
    await settle()
    expect(byTestId('saq-pci-report-option').map((o) => o.dataset.id)).toEqual([
      'r-ext',
      'r-int',
      'r-none',
    ])
  })
})

describe('the quarters of the last twelve months', () => {
  it('show four quarters that are over beside this one, and findings first seen where the history lists no run', async () => {
    mountWithApp(SaqPciRuns, { props: { data: pciDataFor('11.3.1')! } })
    await settle()
    const quarters = byTestId('saq-pci-quarter')
    expect(quarters.map((q) => q.dataset.quarter)).toEqual([
      '2029 Q4',
      '2030 Q1',
      '2030 Q2',
      '2030 Q3',
      '2030 Q4',
    ])
    const q2 = quarters[2]
    expect(text(q2)).toContain("No run in the service's history")
    expect(text(q2.querySelector('[data-testid="saq-pci-first-seen"]')!)).toBe(
      '— yet 7 findings of the internal scans were first seen in this quarter: a run the history does not list found them.',
    )
    expect(quarters[1].querySelector('[data-testid="saq-pci-first-seen"]')).toBeNull()
  })
})
