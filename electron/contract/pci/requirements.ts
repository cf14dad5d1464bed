/*
 * Which PCI DSS requirements of an SAQ the service's own data speaks to, and with what. One table,
 * used by the SAQ filler (the data shown beside the answer, "ScanDesk suggests; the analyst
 * answers") and checked against every SAQ template of the sandbox (sandbox/domains/reporting/pci-map.test.ts). The
 * interface does not show any of it; docs/decisions.md "PCI requirements backed by scan evidence"
 * explains the choices.
 */

/** What a requirement is shown: quarterly runs, aged findings, or rescans after failing runs. */
export type PciDataKind = 'quarterly_runs' | 'aged_findings' | 'rescans'

/**
 * Which scans count: internal (a scanner with app type internal_scan) or external (external_scan
 * or pci_scan, the approved scanning vendor's); null for data not tied to a scanner.
 */
export type PciScope = 'internal' | 'external'

/** One mapped requirement: what data speaks to it, from which operations. */
export interface PciRequirementData {
  /** The requirement number, as in the templates. */
  requirement: string
  kind: PciDataKind
  scope: PciScope | null
  /** One line said above the data: what it shows. */
  shows: string
  /** The catalog operations the data is read from. */
  operations: readonly string[]
  /**
   * The findings behind the requirement, as the vulnerabilities list's query (its CSV is what
   * "Attach the findings as CSV" writes; `findingsQuery` gives it at a moment): 6.3.3 CVSS 7.0 or
   * more (high and critical) first seen more than a month ago, the scanning requirements the
   * findings that fail PCI (CVSS 4.0 or more).
   */
  findings: {
    query: Readonly<Record<string, string | number>>
    what: string
    /** Only those first seen more than one calendar month before the day (`monthAgo`). */
    olderThanAMonth?: true
  }
}

const HIGH_AND_CRITICAL_AGED = {
  query: { cvss_score_min: 7 },
  what: 'critical and high findings (CVSS 7.0 or more) first seen more than a month ago',
  olderThanAMonth: true,
} as const
const FAILING_PCI = {
  query: { pci_compliant: 'false' },
  what: 'findings that fail PCI (CVSS 4.0 or more)',
} as const

const RUN_OPS = ['scanners.list', 'scans.list', 'scans.history'] as const

/** The requirement map (decided here; docs/decisions.md). */
export const PCI_REQUIREMENT_DATA: readonly PciRequirementData[] = [
  {
    requirement: '11.3.1',
    kind: 'quarterly_runs',
    scope: 'internal',
    shows: 'Internal scan runs of the last twelve months, per quarter',
    operations: RUN_OPS,
    findings: FAILING_PCI,
  },
  {
    requirement: '11.3.2',
    kind: 'quarterly_runs',
    scope: 'external',
    shows: 'External scan runs of the last twelve months, per quarter',
    operations: RUN_OPS,
    findings: FAILING_PCI,
  },
  {
    requirement: '6.3.3',
    kind: 'aged_findings',
    scope: null,
    shows: 'Critical and high findings open longer than one month',
    operations: ['vulnerabilities.list'],
    findings: HIGH_AND_CRITICAL_AGED,
  },
  {
    requirement: '11.3.1.1',
    kind: 'rescans',
    scope: 'internal',
    shows: 'Internal rescans after a failing run, last twelve months',
    operations: RUN_OPS,
    findings: FAILING_PCI,
  },
  {
    requirement: '11.3.2.1',
    kind: 'rescans',
    scope: 'external',
    shows: 'External rescans after a failing run, last twelve months',
    operations: RUN_OPS,
    findings: FAILING_PCI,
  },
]

const BY_NUMBER = new Map(PCI_REQUIREMENT_DATA.map((d) => [d.requirement, d]))

/** What data speaks to a requirement, or undefined when the service's data does not. */
export function pciDataFor(requirement: string): PciRequirementData | undefined {
  return BY_NUMBER.get(requirement)
}

/**
 * The day a finding must have been first seen before to be open "longer than one month" on the
 * UTC day of `now`: the same day of the previous calendar month, or that month's last day when it
 * is shorter (31 March → 28 or 29 February), as a bare date (its start in UTC). A finding first
 * seen on that day is a month old only the next day. Stable for the day, so the offline copy of
 * the reads naming it answers them again (docs/decisions.md).
 */
export function monthAgo(now: Date): string {
  const y = now.getUTCFullYear()
  const m = now.getUTCMonth() - 1
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
  const day = new Date(Date.UTC(y, m, Math.min(now.getUTCDate(), last)))
  return day.toISOString().slice(0, 10)
}

/** The findings' query of a requirement at `now` (with the first-seen line where it has one). */
export function findingsQuery(
  data: PciRequirementData,
  now: Date,
): Record<string, string | number> {
  return data.findings.olderThanAMonth
    ? { ...data.findings.query, first_seen_before: monthAgo(now) }
    : { ...data.findings.query }
}

/** Scanner app types and the scope their scans count for (others: not classified). */
export const SCOPE_OF_APP_TYPE: Readonly<Record<string, PciScope>> = {
  internal_scan: 'internal',
  external_scan: 'external',
  pci_scan: 'external',
}
