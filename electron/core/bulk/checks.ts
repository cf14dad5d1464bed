// What one bulk write sends, and what the service already has of it: asked before every
// delivery, so a write already made (an answer lost to a 503, a dropped connection, a timeout, a
// crash) is recognised instead of sent twice, and a record that needs nothing is skipped.
import type { BulkAction, BulkBody } from '@contract/bulk'
import { fail } from '@contract/errors'
import type { CallInput } from '../http/request'

/** Sends one catalog operation for the run's account and returns the checked answer. */
export type BulkCall = (op: string, input: CallInput) => Promise<unknown>

/** What to do with one write now. */
export type Verdict =
  { kind: 'send' } | { kind: 'done'; resultId: string } | { kind: 'skip'; message: string }

interface Exception {
  id: string
  attributes: {
    vulnerability_id: string
    kind: string
    reason: string
    state: string
    expires_at: string
  }
}

/** The input of the write `action` makes for `target`. */
export function inputOf(action: BulkAction, target: string, body: BulkBody): CallInput {
  switch (action) {
    case 'exceptions.create':
      return {
        body: {
          vulnerability_id: target,
          kind: body.kind,
          reason: body.reason,
          expires_at: body.expires_at,
        },
      }
    case 'exceptions.update':
      return { path: { id: target }, body: { expires_at: body.expires_at } }
    case 'exceptions.activate':
    case 'exceptions.reset':
      return { path: { id: target } }
  }
}

/** The id of the record a write's answer names. */
export function resultIdOf(answer: unknown): string | null {
  const data = (answer as { data?: { id?: unknown } } | null)?.data
  return typeof data?.id === 'string' ? data.id : null
}

const sameInstant = (a: string, b: string | undefined) =>
  b !== undefined && Date.parse(a) === Date.parse(b)

/**
 * True when `e` is what this create write makes: the same finding, kind, reason and expiry (the
 * write's id cannot travel with it: the service keeps no client key; see docs/decisions.md).
 */
function isThisWrite(e: Exception, target: string, body: BulkBody): boolean {
  const a = e.attributes
  return (
    a.vulnerability_id === target &&
    a.kind === body.kind &&
    a.reason.trim() === (body.reason ?? '').trim() &&
    sameInstant(a.expires_at, body.expires_at)
  )
}

async function exceptionOf(call: BulkCall, id: string): Promise<Exception> {
  const answer = (await call('exceptions.show', { path: { id } })) as { data?: Exception }
  return answer.data ?? fail('BAD_RESPONSE', `The service did not describe exception ${id}.`)
}

/**
 * What the service has of this write. `attempted`: it was handed to the service before (its
 * answer never arrived), so a match is this write, done; otherwise a match is someone else's
 * and the record is skipped with the reason.
 */
export async function verdictOf(
  call: BulkCall,
  action: BulkAction,
  target: string,
  body: BulkBody,
  attempted: boolean,
): Promise<Verdict> {
  if (action === 'exceptions.create') {
    const answer = (await call('exceptions.list', {
      query: { vulnerability_id: target, per_page: 100 },
    })) as { data: Exception[] }
    // The service keeps one exception per finding until it expires (pending or active).
    const open = answer.data.filter(
      (e) => e.attributes.vulnerability_id === target && e.attributes.state !== 'expired',
    )
    const mine = attempted ? open.find((e) => isThisWrite(e, target, body)) : undefined
    if (mine) return { kind: 'done', resultId: mine.id }
    const other = open[0]
    if (other)
      return {
        kind: 'skip',
        message: `The finding already has ${other.attributes.state} exception ${other.id}.`,
      }
    return { kind: 'send' }
  }
  const e = await exceptionOf(call, target)
  const already =
    action === 'exceptions.update'
      ? sameInstant(e.attributes.expires_at, body.expires_at)
      : e.attributes.state === (action === 'exceptions.activate' ? 'active' : 'pending')
  if (!already) return { kind: 'send' }
  if (attempted) return { kind: 'done', resultId: e.id }
  const message =
    action === 'exceptions.update'
      ? `It already expires on ${e.attributes.expires_at}.`
      : `It is already ${e.attributes.state}.`
  return { kind: 'skip', message }
}
