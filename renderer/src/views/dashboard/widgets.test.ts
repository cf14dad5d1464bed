import { describe, expect, it } from 'vitest'
import { SEVERITY_COLORS } from '@/components/charts/severity'
import { kindRows, stateRows } from '@/views/exceptions/statistics'
import { PCI_COLORS, pciRows, topRows, totalRows, vulnerabilitiesWhere } from './widgets'

describe('drilling down to the vulnerabilities list', () => {
  it('puts the filter in the address and leaves out what is not set', () => {
    expect(vulnerabilitiesWhere({ severity: 'high' })).toEqual({
      name: 'vulnerabilities',
      query: { severity: 'high' },
    })
    expect(vulnerabilitiesWhere({ pci_compliant: 'false', host_id: undefined })).toEqual({
      name: 'vulnerabilities',
      query: { pci_compliant: 'false' },
    })
    expect(vulnerabilitiesWhere()).toEqual({ name: 'vulnerabilities', query: {} })
  })
})

describe('the total widget as bars', () => {
  it('gives one bar per severity, worst first, each leading to that severity', () => {
    const rows = totalRows({ total: 9, critical: 2, high: '3', medium: -1, low: 4 })
    expect(rows.map((r) => [r.key, r.label, r.value])).toEqual([
      ['critical', 'Critical', 2],
      ['high', 'High', 3],
      ['medium', 'Medium', 0],
      ['low', 'Low', 4],
      ['info', 'Info', 0],
    ])
    expect(rows[0].color).toBe(SEVERITY_COLORS.critical)
    expect(rows[1].to).toEqual({ name: 'vulnerabilities', query: { severity: 'high' } })
  })
})

describe('the PCI widget as bars', () => {
  it('shows failing findings first, each bar leading to those findings', () => {
    const rows = pciRows({ pass: 5, fail: 7 })
    expect(rows.map((r) => [r.label, r.value, r.color])).toEqual([
      ['Fail PCI DSS', 7, PCI_COLORS.fail],
      ['Pass PCI DSS', 5, PCI_COLORS.pass],
    ])
    expect(rows.map((r) => r.to)).toEqual([
      { name: 'vulnerabilities', query: { pci_compliant: 'false' } },
      { name: 'vulnerabilities', query: { pci_compliant: 'true' } },
    ])
    expect(pciRows(null).map((r) => r.value)).toEqual([0, 0])
  })
})

describe('the top widget as bars', () => {
  it('names each finding with its host, scores it, colours it by severity and links its page', () => {
    const rows = topRows([
      {
        id: 'vul-9',
        attributes: {
          title: 'Log4Shell',
          severity: 'critical',
          cvss_score: 10,
          host_ip: '10.0.0.1',
        },
      },
      { id: 'vul-8', attributes: { title: '', severity: 'weird', cvss_score: 'x' } },
      { id: 'vul-7', attributes: { title: 'Odd', severity: 'low', cvss_score: 42 } },
    ])
    expect(rows.map((r) => [r.key, r.label, r.value, r.color])).toEqual([
      ['vul-9', 'Log4Shell (10.0.0.1)', 10, SEVERITY_COLORS.critical],
      ['vul-8', 'vul-8', 0, SEVERITY_COLORS.info],
      ['vul-7', 'Odd', 10, SEVERITY_COLORS.low],
    ])
    expect(rows[0].to).toEqual({ name: 'vulnerabilities-detail', params: { id: 'vul-9' } })
    expect(topRows(undefined)).toEqual([])
  })
})

describe('the exception statistics as bars', () => {
  it('counts by state and by kind, each bar filtering the exceptions list', () => {
    const states = stateRows({ pending: 3, active: 2, expired: 'n' })
    expect(states.map((r) => [r.key, r.value])).toEqual([
      ['active', 2],
      ['pending', 3],
      ['expired', 0],
    ])
    expect(states[1].to).toEqual({ name: 'exceptions', query: { state: 'pending' } })
    const kinds = kindRows({ accepted_risk: 4, false_positive: 1 })
    expect(kinds.map((r) => [r.label, r.value])).toEqual([
      ['Accepted risk', 4],
      ['False positive', 1],
    ])
    expect(kinds[1].to).toEqual({ name: 'exceptions', query: { kind: 'false_positive' } })
  })
})
