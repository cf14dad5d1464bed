import { describe, expect, it } from 'vitest'
import { cvesOf, findingIdentity, vulnerabilityKey } from './identity'

const finding = {
  title: 'TLS 1.0 enabled',
  cve_ids: ['CVE-2011-3389'],
  host_id: 'hst-001',
  host_ip: '203.0.113.10',
  port: 443,
  protocol: 'tcp',
}

describe('finding identity', () => {
  it('ignores case, spacing, CVE order and repeats, severity and the service id', () => {
    const same = {
      ...finding,
      title: '  tls 1.0   ENABLED ',
      cve_ids: ['cve-2011-3389', 'CVE-2011-3389'],
      severity: 'high',
      cvss_score: 7.1,
      id: 'vul-999',
    }
    expect(findingIdentity(same)).toBe(findingIdentity(finding))
  })

  it('tells apart another host, port, protocol, title or CVE', () => {
    const key = findingIdentity(finding)
    for (const other of [
      { host_ip: '203.0.113.11' },
      { port: 8443 },
      { protocol: 'udp' },
      { title: 'TLS 1.1 enabled' },
      { cve_ids: ['CVE-2011-3389', 'CVE-2014-3566'] },
    ]) {
      expect(findingIdentity({ ...finding, ...other }), JSON.stringify(other)).not.toBe(key)
    }
  })

  it("falls back to the service's host id when the row has no address", () => {
    const a = findingIdentity({ ...finding, host_ip: null })
    expect(a).toContain('host:hst-001')
    expect(findingIdentity({ ...finding, host_ip: null, host_id: 'hst-002' })).not.toBe(a)
  })

  it('names no finding when the row has neither title nor CVEs', () => {
    expect(findingIdentity({ ...finding, title: ' ', cve_ids: [] })).toBeNull()
    expect(vulnerabilityKey({ title: 42, cve_ids: 'CVE-1' })).toBeNull()
  })

  it('keeps only string CVEs, upper case and sorted', () => {
    expect(cvesOf(['cve-2020-2', 7, 'CVE-2020-1', ''])).toEqual(['CVE-2020-1', 'CVE-2020-2'])
  })
})
