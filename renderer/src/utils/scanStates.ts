import type { ScanStatus } from '@contract/catalog/scans'

/** States in which a scan changes by itself: what shows it is asked again while it is in one. */
export const LIVE_STATES: readonly ScanStatus[] = ['queued', 'running', 'stopping']

/** States a run ends in. */
export const FINISHED_STATES: readonly ScanStatus[] = ['completed', 'stopped', 'failed']

/** Whether a scan (its attributes' status) changes by itself now. */
export const scanIsLive = (a: { status?: unknown }): boolean =>
  LIVE_STATES.includes(a.status as ScanStatus)
