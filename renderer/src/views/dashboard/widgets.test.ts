import { describe, expect, it } from 'vitest'
import { SEVERITY_COLORS } from '@/components/kit/severity'
import { kindRows, stateRows } from '@/views/exceptions/statistics'
import {
  findingKey,
  PCI_COLORS,
  pciRows,
  topRows,
  totalRows,
  vulnerabilitiesWhere,
} from './widgets'

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

  it('leads to the findings counted: first seen before the read, with the count (issue 36 §2)', () => {
    const at = '2026-11-02T10:02:00.000Z'
    const rows = totalRows({ critical: 30 }, at)
    expect(rows[0].to).toEqual({
      name: 'vulnerabilities',
      query: { severity: 'critical', first_seen_before: at, counted: '30', counted_at: at },
    })
    expect(pciRows({ fail: 7 }, at)[0].to).toEqual({
      name: 'vulnerabilities',
      query: { pci_compliant: 'false', first_seen_before: at, counted: '7', counted_at: at },
    })
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
  const row = (id: string, a: Record<string, unknown>) => ({ id, attributes: a })
  const log4shell = (id: string, host: string, score = 10) =>
    row(id, {
      title: 'Apache Log4j remote code execution (Log4Shell)',
      severity: 'critical',
      cvss_score: score,
      cve_ids: ['CVE-2021-44228'],
      host_id: host,
      host_ip: `10.0.0.${host.slice(-1)}`,
    })

  it('gives one bar per finding, not one per host, with the hosts counted', () => {
    const rows = topRows([
      log4shell('vul-1', 'hst-1'),
      log4shell('vul-2', 'hst-2'),
      row('vul-3', {
        title: 'Unsupported PHP version',
        severity: 'high',
        cvss_score: 9.8,
        host_id: 'hst-1',
      }),
      log4shell('vul-4', 'hst-3', 9.9),
      // the same finding seen twice on one host (two scans) is one host
      row('vul-5', {
        title: ' unsupported  PHP version',
        severity: 'high',
        cvss_score: 9.8,
        host_id: 'hst-1',
      }),
    ])
    expect(rows.map((r) => [r.label, r.value, r.color])).toEqual([
      ['Apache Log4j remote code execution (Log4Shell) — 3 hosts', 10, SEVERITY_COLORS.critical],
      ['Unsupported PHP version', 9.8, SEVERITY_COLORS.high],
    ])
    expect(rows[0].title).toBe(
      'Apache Log4j remote code execution (Log4Shell) (CVE-2021-44228), on 3 hosts',
    )
    // on several hosts: every host's finding by its CVE; on one host: that finding's page
    expect(rows[0].to).toEqual({ name: 'vulnerabilities', query: { cve_id: 'CVE-2021-44228' } })
    expect(rows[1].to).toEqual({ name: 'vulnerabilities-detail', params: { id: 'vul-3' } })
  })

  it('keeps the highest scores first, at most the limit, and reads odd rows as far as it can', () => {
    const rows = topRows(
      [
        row('vul-8', { title: '', severity: 'weird', cvss_score: 'x' }),
        row('vul-7', { title: 'Odd', severity: 'low', cvss_score: 42 }),
        row('vul-6', { title: 'Weak TLS', severity: 'medium', cvss_score: 5.3, host_id: 'h' }),
      ],
      2,
    )
    expect(rows.map((r) => [r.key, r.label, r.value, r.color])).toEqual([
      ['odd|', 'Odd', 10, SEVERITY_COLORS.low],
      ['weak tls|', 'Weak TLS', 5.3, SEVERITY_COLORS.medium],
    ])
    expect(topRows([row('vul-8', { title: '', severity: 'weird', cvss_score: 'x' })])).toEqual([
      expect.objectContaining({
        key: 'id:vul-8',
        label: 'vul-8',
        value: 0,
        color: SEVERITY_COLORS.info,
      }),
    ])
    expect(topRows(undefined)).toEqual([])
  })

  it('tells findings apart by their CVEs even under one title', () => {
    const a = row('vul-1', { title: 'OpenSSH flaw', cvss_score: 7, cve_ids: ['CVE-2023-48795'] })
    const b = row('vul-2', { title: 'OpenSSH flaw', cvss_score: 7, cve_ids: ['CVE-2024-6387'] })
    expect(findingKey(a)).not.toBe(findingKey(b))
    expect(topRows([a, b])).toHaveLength(2)
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
