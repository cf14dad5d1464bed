import { describe, expect, it } from 'vitest'
import { pciVerdict } from './verdict'

describe('the dashboard’s PCI verdict in words', () => {
  const compliant = { compliant: true, fail: 0 }
  const failing = { compliant: false, fail: 3 }

  it('is not known while no scan has completed, even with no failing finding', () => {
    expect(pciVerdict(compliant, 0, 2)).toBe('PCI compliance not known yet: no scan has completed.')
  })

  it('says compliant once a scan completed, and that running scans may still change it', () => {
    expect(pciVerdict(compliant, 3, 0)).toBe('PCI compliant: no finding fails PCI DSS.')
    expect(pciVerdict(compliant, 3, 1)).toBe(
      'PCI compliant: no finding fails PCI DSS. 1 running scan may change this when it finishes.',
    )
    expect(pciVerdict(compliant, 3, 2)).toBe(
      'PCI compliant: no finding fails PCI DSS. 2 running scans may change this when they finish.',
    )
  })

  it('says not compliant whenever a finding fails, whatever else is known', () => {
    expect(pciVerdict(failing, 0, null)).toBe(
      'Not PCI compliant: fix or except the failing findings.',
    )
    expect(pciVerdict(failing, null, 1)).toBe(
      'Not PCI compliant: fix or except the failing findings. 1 running scan may change this when it finishes.',
    )
  })

  it('takes the widget’s word while the scans are not read yet, and says nothing without an answer', () => {
    expect(pciVerdict(compliant, null, null)).toBe('PCI compliant: no finding fails PCI DSS.')
    expect(pciVerdict(null, 1, 0)).toBe('')
  })
})
