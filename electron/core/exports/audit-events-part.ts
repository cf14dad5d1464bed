// The optional part of an audit bundle (issue 20): the account's audit log over an SAQ's period,
// as JSON Lines beside its PDF, hashed like every other file of the bundle. The period holds its
// own approval (issue 36: the service stamps the approval's audit event a moment after the SAQ's
// approved_at), and a period without events is said so in the manifest, never an empty file.
import { createHash } from 'node:crypto'
import { AppFailure } from '@contract/errors'
import { writeAtomically } from '../files/atomic-write'
import { formatJsonLines, type ListRecord } from '../files/jsonl-text'
import { LIST_LIMITS, readList } from '../files/list-csv'
import type { AccountClient } from '../http/client'
import type { SaqFacts } from './service'

/** The file's name in each SAQ's folder of the bundle. */
export const AUDIT_EVENTS_FILE = 'audit-events.jsonl'

/**
 * How long after an SAQ's `approved_at` its approval's own audit event is looked for: the service
 * writes the event after the approval (milliseconds later in the sandbox; a real deployment may
 * queue its log writes). The period ends at that event when it is found within this margin.
 */
export const APPROVAL_EVENT_MARGIN_MS = 2 * 60_000

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
function instant(value: string | null | undefined): string | null {
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

/** An event that records this SAQ's approval (an action naming approval, on this SAQ). */
export function isApprovalEvent(record: ListRecord, saqId: string): boolean {
  const a = record.attributes
  return (
    String(a.resource_type ?? '') === 'saq' &&
    String(a.resource_id ?? '') === saqId &&
    /approv/i.test(String(a.action ?? ''))
  )
}

/**
 * The events of the period, oldest first, ending at the SAQ's approval event. `records` were read
 * up to `to` plus the margin: the first approval event of this SAQ in them (at most the margin
 * after `to`) moves the end to its own time; everything later is left out. Without one the period
 * ends at `to` and `approvalEvent` is null.
 */
export function closePeriod(
  records: readonly ListRecord[],
  period: AuditPeriod,
  saqId: string,
): { records: ListRecord[]; period: AuditPeriod; approvalEvent: ListRecord | null } {
  const at = (r: ListRecord) => Date.parse(String(r.attributes.occurred_at ?? ''))
  const end = Date.parse(period.to)
  const approval =
    period.ends === 'approval'
      ? (records.find(
          (r) =>
            isApprovalEvent(r, saqId) &&
            at(r) >= end - APPROVAL_EVENT_MARGIN_MS &&
            at(r) <= end + APPROVAL_EVENT_MARGIN_MS,
        ) ?? null)
      : null
  const last = approval ? Math.max(end, at(approval)) : end
  return {
    // an event without a readable time stays (the service put it in the period it was asked for)
    records: records.filter((r) => !(at(r) > last)),
    period: { ...period, to: new Date(last).toISOString() },
    approvalEvent: approval,
  }
}

/**
 * What was written: the file (null when the period holds no event: then `note` says why), its
 * size and SHA-256, the period, how many events it holds and the approval's own event.
 */
export interface AuditEventsPart {
  file: string | null
  size: number
  sha256: string | null
  period: AuditPeriod
  events: number
  /** The id of the event recording the SAQ's approval, or null when the log has none. */
  approvalEvent: string | null
  /** Why there is no file, or what is missing from it (no approval event); null when complete. */
  note: string | null
}

const day = (iso: string) => iso.slice(0, 10)

/** Why a period holds no event: the log begins after it, or holds nothing in it. */
async function emptyBecause(client: AccountClient, period: AuditPeriod): Promise<string> {
  const answer = (await client.call('audit.list', {
    query: { sort: 'occurred_at', page: 1, per_page: 1 },
  })) as { data?: ListRecord[] }
  const oldest = answer.data?.[0]
  const span = `${period.from ? `from ${period.from} ` : ''}to ${period.to}`
  if (!oldest)
    return `The account's audit log holds no events at all, so no ${AUDIT_EVENTS_FILE} was written for this period (${span}).`
  const first = instant(String(oldest.attributes.occurred_at ?? ''))
  if (first && first > period.to)
    return `The account's audit log begins on ${day(first)} (its oldest event, ${oldest.id}), after this period ended (${span}): the service keeps no older events, so no ${AUDIT_EVENTS_FILE} was written.`
  return `The account's audit log holds no event in this period (${span}), so no ${AUDIT_EVENTS_FILE} was written.`
}

/**
 * Reads every audit event of the SAQ's period (oldest first, every page, at most the export's
 * cap), the period closed at the SAQ's own approval event (`closePeriod`), and writes them to
 * `folder/audit-events.jsonl`, atomically. A period without events writes no file and says why
 * (`note`). A longer log fails the bundle with TOO_LARGE saying it can be made without them.
 */
export async function writeAuditEvents(
  client: AccountClient,
  folder: string,
  saq: Pick<SaqFacts, 'id' | 'name' | 'createdAt' | 'approvedAt'>,
  now: Date,
): Promise<AuditEventsPart> {
  const asked = auditPeriod(saq, now)
  // Read a little past the approval to find the approval's own event (not capped at this
  // computer's now: the service's clock, which stamped both, may run ahead of it).
  const end = Date.parse(asked.to)
  const readTo = asked.ends === 'approval' ? end + APPROVAL_EVENT_MARGIN_MS : end
  const query = {
    sort: 'occurred_at',
    to: new Date(readTo).toISOString(),
    ...(asked.from !== null ? { from: asked.from } : {}),
  }
  const read = await readList(client, 'audit.list', query).catch((err: unknown) => {
    if (err instanceof AppFailure && err.error.code === 'TOO_LARGE')
      throw new AppFailure({
        code: 'TOO_LARGE',
        message: `The audit log of “${saq.name}”'s period holds more than ${LIST_LIMITS['audit.list'].maxRows} events, more than one bundle file takes; no audit folder was made. Make it without the audit events, and export the audit log from its screen in parts.`,
      })
    throw err
  })
  const { records, period, approvalEvent } = closePeriod(read, asked, saq.id)
  if (!records.length)
    return {
      file: null,
      size: 0,
      sha256: null,
      period,
      events: 0,
      approvalEvent: null,
      note: await emptyBecause(client, period),
    }
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
    approvalEvent: approvalEvent?.id ?? null,
    note:
      period.ends === 'approval' && !approvalEvent
        ? `The audit log holds no event recording this SAQ's approval within ${APPROVAL_EVENT_MARGIN_MS / 60_000} minutes of its approval time (${period.to}); the file ends at that time.`
        : null,
  }
}
