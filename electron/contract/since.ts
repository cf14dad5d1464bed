import { z } from 'zod'
import { accountId } from './accounts'

/** Inputs of the "Since your last visit" channels (checked in main before any work). */
export const sinceInputs = {
  /** The account's counts since its last dashboard visit (the offline copy when out of reach). */
  'since.counts': z.strictObject({ accountId }),
  /**
   * The user left the account's dashboard having seen its counts up to `until` (the answer's own):
   * that visit counts once the dashboard stays left for VISIT_GAP_HOURS (docs/decisions.md).
   */
  'since.left': z.strictObject({ accountId, until: z.iso.datetime() }),
  /** The user marked the digest reviewed: from now on it counts from `until` (the answer's own). */
  'since.reviewed': z.strictObject({ accountId, until: z.iso.datetime() }),
}

/**
 * Hours the dashboard must stay left before that visit counts and the digest moves on by itself
 * (decided: docs/decisions.md, "Since your last visit"): a working day, so drilling into a count,
 * a reload or an afternoon's triage keep it, and the next morning starts from the last look.
 */
export const VISIT_GAP_HOURS = 8

/** Days ahead an active exception counts as expiring (decided: docs/decisions.md). */
export const EXPIRING_DAYS = 14
/** Days the first visit looks back (no visit recorded yet). */
export const FIRST_VISIT_DAYS = 7

/** One count of the panel. */
export interface SinceCount {
  /** Null: it cannot be told (`note` says why). */
  value: number | null
  /** The count stopped at ScanDesk's cap: there are at least `value`. */
  atLeast: boolean
  /** A sentence shown as it is: why the count is not known, or what it leaves out. */
  note: string | null
  /** True when it was counted from the offline copy. */
  fromCache: boolean
}

/** Fixed findings: counted from run snapshots of the scans completed since. */
export interface FixedCount extends SinceCount {
  /** The scans whose comparison gave the count (their Changes tabs list the findings). */
  scanIds: string[]
}

/** The answer of since.counts. */
export interface SinceAnswer {
  accountId: string
  /** The moment counted from: the last visit, or FIRST_VISIT_DAYS ago on the first. */
  since: string
  /** The moment counted up to (the counts' own "now"): the lists they open stop there too. */
  until: string
  firstVisit: boolean
  newCritical: SinceCount
  newHigh: SinceCount
  fixed: FixedCount
  scansCompleted: SinceCount
  /** Active exceptions expiring from now to EXPIRING_DAYS ahead. */
  expiring: SinceCount
}

/** Outputs of the channels. */
export interface SinceOutputs {
  'since.counts': SinceAnswer
  'since.left': { since: string }
  'since.reviewed': { since: string }
}
