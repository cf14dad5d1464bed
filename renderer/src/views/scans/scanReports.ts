import type { ScanStatus } from '@contract/catalog/scans'

const HOW = 'Reports appear when a run of this scan completes.'

/**
 * Why a scan has no report yet, from its state: the service makes a scan's reports when a run
 * completes (docs/decisions.md, "Reports of a scan"); there is no operation to ask for one.
 */
export function noReportText(status: ScanStatus | null | undefined): string {
  switch (status) {
    case 'running':
    case 'stopping':
      return 'This scan is running: its report appears here when the run completes.'
    case 'queued':
      return 'This scan is queued: its report appears here when the run completes.'
    case 'failed':
      return `Its last run failed, which leaves no report. ${HOW}`
    case 'stopped':
      return `Its last run was stopped, which leaves no report. ${HOW}`
    default:
      return `No report of this scan yet. ${HOW}`
  }
}
