// The optional part of an audit bundle (issue 20): the account's audit log over an SAQ's period,
// as JSON Lines beside its PDF, hashed like every other file of the bundle.
import { createHash } from 'node:crypto'
import { AppFailure } from '@contract/errors'
import { writeAtomically } from '../files/atomic-write'
import { formatJsonLines } from '../files/jsonl-text'
import { LIST_LIMITS, readList } from '../files/list-csv'
import type { AccountClient } from '../http/client'
import type { SaqFacts } from './service'

/** The file's name in each SAQ's folder of the bundle. */
export const AUDIT_EVENTS_FILE = 'audit-events.jsonl'

/**
 * An SAQ's period: from its creation (null when the service did not say: the log from its start)
 * to its approval, or to the bundle's making when it has no approval time.
 */
export interface AuditPeriod {
  from: string | null
  to: string
  ends: 'approval' | 'now'
}

/** A time of the service as an ISO date-time in UTC, or null when it is none. */
function instant(value: string | null): string | null {
  const ms = value ? Date.parse(value) : NaN
  return Number.isNaN(ms) ? null : new Date(ms).toISOString()
}

/** The period whose audit events go with an SAQ (see AuditPeriod). */
export function auditPeriod(
  saq: Pick<SaqFacts, 'createdAt' | 'approvedAt'>,
  now: Date,
): AuditPeriod {
  const approved = instant(saq.approvedAt)
  const to = approved ?? now.toISOString()
  const created = instant(saq.createdAt)
  // a creation after the end (clocks apart) would be refused by the service: the end's instant
  const from = created !== null && created > to ? to : created
  return { from, to, ends: approved ? 'approval' : 'now' }
}

/** What was written: the file, its size and SHA-256, the period and how many events it holds. */
export interface AuditEventsPart {
  file: string
  size: number
  sha256: string
  period: AuditPeriod
  events: number
}

/**
 * Reads every audit event of the SAQ's period (oldest first, every page, at most the export's
 * cap) and writes them to `folder/audit-events.jsonl`, atomically. A longer log fails the bundle
 * with TOO_LARGE saying it can be made without them.
 */
export async function writeAuditEvents(
  client: AccountClient,
  folder: string,
  saq: Pick<SaqFacts, 'name' | 'createdAt' | 'approvedAt'>,
  now: Date,
): Promise<AuditEventsPart> {
  const period = auditPeriod(saq, now)
  const query = {
    sort: 'occurred_at',
    to: period.to,
    ...(period.from !== null ? { from: period.from } : {}),
  }
  const records = await readList(client, 'audit.list', query).catch((err: unknown) => {
    if (err instanceof AppFailure && err.error.code === 'TOO_LARGE')
      throw new AppFailure({
        code: 'TOO_LARGE',
        message: `The audit log of “${saq.name}”'s period holds more than ${LIST_LIMITS['audit.list'].maxRows} events, more than one bundle file takes; no audit folder was made. Make it without the audit events, and export the audit log from its screen in parts.`,
      })
    throw err
  })
  const { text, rows } = formatJsonLines(records)
  const bytes = Buffer.from(text, 'utf8')
  const file = await writeAtomically(folder, AUDIT_EVENTS_FILE, text, {
    place: 'new',
    doing: `write ${AUDIT_EVENTS_FILE}`,
  })
  return {
    file,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    period,
    events: rows,
  }
}
