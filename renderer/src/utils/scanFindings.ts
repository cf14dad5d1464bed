// When figures drawn from a scan's findings (its PCI verdict, its findings count, its counts by
// severity) can be believed. A scan that has not run, or whose run is still going, has found
// nothing yet: "0 findings" and "PCI compliant: Yes" would be claims, so they read "Not known yet"
// until a run has completed (docs/decisions.md, "Verdicts and counts of a scan").

/** Why a figure is not known, short for a cell and whole for a tooltip or a line. */
export interface Unknown {
  short: string
  long: string
}

const NOT_RUN: Unknown = {
  short: 'Not known yet',
  long: 'Not known yet: the scan has not run yet.',
}
const RUNNING: Unknown = {
  short: 'Not known yet',
  long: 'Not known yet: the run has not finished.',
}
const ENDED_EARLY: Record<string, Unknown> = {
  stopped: {
    short: 'Not known (run stopped)',
    long: 'Not known: the last run was stopped before it finished, so not every host was scanned.',
  },
  failed: {
    short: 'Not known (run failed)',
    long: 'Not known: the last run failed before it finished, so not every host was scanned.',
  },
}

/** Run states in which a run is still going (its findings are not all in). */
const GOING = new Set(['queued', 'running', 'stopping'])

/**
 * Why figures from a scan's findings are not known, by the scan's status; null when its last run
 * completed and they stand. Stopped and failed runs did not scan every host: their figures are
 * not the scan's verdict either. An unknown status counts as not known.
 */
export function scanFindingsUnknown(status: unknown): Unknown | null {
  if (status === 'completed') return null
  if (status === 'queued' || status === 'scheduled') return NOT_RUN
  if (typeof status === 'string' && ENDED_EARLY[status]) return ENDED_EARLY[status]
  return RUNNING
}

/**
 * Why one run's figures (a row of a scan's history) are not known: only while that run is still
 * going. A stopped or failed run's figures are what that run found, and its status says so.
 */
export function runFindingsUnknown(status: unknown): Unknown | null {
  return typeof status === 'string' && GOING.has(status) ? RUNNING : null
}

/** The PCI verdict of a scan's statistics in words: Yes or No once known, else why not. */
export function pciVerdictText(status: unknown, compliant: boolean | null | undefined): string {
  const unknown = scanFindingsUnknown(status)
  if (unknown) return unknown.short
  if (compliant === null || compliant === undefined) return 'Not known'
  return compliant ? 'Yes' : 'No'
}
