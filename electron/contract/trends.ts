import { z } from 'zod'
import { accountId } from './accounts'

/** Days of daily totals ScanDesk keeps per account (docs/decisions.md, "Trends over runs"). */
export const DAILY_TOTALS_KEPT_DAYS = 400

/** Open findings per severity. */
export interface SeverityTotals {
  critical: number
  high: number
  medium: number
  low: number
  info: number
}

/** Inputs of the trend channels (checked in main before any work). */
export const trendsInputs = {
  /**
   * The account's open findings per severity recorded by ScanDesk on this computer, one row per
   * day, for the last `days` days (today included). Today's is taken first when it is missing and
   * the service answers (from the service itself, never the offline copy).
   */
  'trends.daily': z.strictObject({
    accountId,
    days: z.number().int().min(1).max(DAILY_TOTALS_KEPT_DAYS).optional(),
  }),
}

/** One day's totals as ScanDesk recorded them. */
export interface DailyTotal {
  /** The day on this computer's calendar (YYYY-MM-DD). */
  day: string
  /** When ScanDesk asked the service. */
  takenAt: string
  totals: SeverityTotals
}

/** The answer of trends.daily. */
export interface DailyTotalsAnswer {
  /** Oldest first. */
  days: DailyTotal[]
  /** Sentences the view shows as they are: why today's was not recorded. */
  notes: string[]
}

/** Output type of each channel. */
export interface TrendsOutputs {
  'trends.daily': DailyTotalsAnswer
}
