import { z } from 'zod'
import { accountId } from './accounts'

/** Inputs of the "Since your last visit" channels (checked in main before any work). */
export const sinceInputs = {
  /** The account's counts since its last dashboard visit (the offline copy when out of reach). */
  'since.counts': z.strictObject({ accountId }),
  /** Records a dashboard visit of the account now (the user left its dashboard). */
  'since.seen': z.strictObject({ accountId }),
}

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
  'since.seen': { seenAt: string }
}
