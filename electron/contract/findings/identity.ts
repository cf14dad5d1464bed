// What makes a finding the same finding: across hosts (the dashboard's top findings) and across
// runs of one scan (the Changes view, snapshots). docs/decisions.md, "The same finding" and
// "A finding across runs".

/** The attributes identity reads, as loose as a row of any answer or snapshot may carry them. */
export interface FindingFields {
  title?: unknown
  cve_ids?: unknown
  host_id?: unknown
  host_ip?: unknown
  port?: unknown
  protocol?: unknown
}

const textOf = (v: unknown) => (typeof v === 'string' ? v.trim() : '')

/** The row's CVE identifiers, upper case, without repeats, sorted. */
export function cvesOf(v: unknown): string[] {
  if (!Array.isArray(v)) return []
  const cves = v
    .filter((c): c is string => typeof c === 'string')
    .map((c) => c.trim().toUpperCase())
  return [...new Set(cves)].filter(Boolean).sort()
}

/**
 * The vulnerability a row reports, whatever host it was seen on: its title (case and spacing
 * aside) and its CVE identifiers. Null when the row has neither.
 */
export function vulnerabilityKey(attrs: FindingFields): string | null {
  const title = textOf(attrs.title).toLowerCase().replace(/\s+/g, ' ')
  const cves = cvesOf(attrs.cve_ids)
  return title || cves.length ? `${title}|${cves.join(',')}` : null
}

/**
 * One finding of a scan across its runs: the vulnerability (title and CVEs), the host (its address,
 * else the service's host id) and the port and protocol. Neither the service's finding id (a
 * service may number a re-found finding anew), nor severity or CVSS (a rescored finding is the
 * same finding, changed), nor the times are part of it. Null when the row names no vulnerability.
 */
export function findingIdentity(attrs: FindingFields): string | null {
  const vulnerability = vulnerabilityKey(attrs)
  if (vulnerability === null) return null
  const ip = textOf(attrs.host_ip).toLowerCase()
  const host = ip ? `ip:${ip}` : `host:${textOf(attrs.host_id)}`
  const port = typeof attrs.port === 'number' && Number.isInteger(attrs.port) ? attrs.port : ''
  const protocol = textOf(attrs.protocol).toLowerCase()
  return `${host}|${port}/${protocol}|${vulnerability}`
}
