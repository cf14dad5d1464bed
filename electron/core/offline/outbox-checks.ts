// What the service already has of a queued write that was handed over before (its answer lost to
// a crash, a dropped connection or a timeout): asked before the outbox sends it again, so a write
// is made once, as the bulk runs' checks do for theirs (core/bulk/checks.ts).
import type { CallInput } from '../http/request'

/** Sends one catalog operation for the item's account and returns the checked answer. */
export type OutboxCall = (op: string, input: CallInput) => Promise<unknown>

interface Notification {
  attributes?: { read?: unknown; seen?: unknown }
}

/** The notification a mark names, as the service shows it now. */
async function shown(call: OutboxCall, input: CallInput): Promise<Notification | undefined> {
  return ((await call('notifications.show', { path: input.path })) as { data?: Notification }).data
}

/** True when the current user has no notification left with `flag` false. */
async function noneLeft(call: OutboxCall, flag: 'read' | 'seen'): Promise<boolean> {
  const answer = (await call('notifications.list', {
    query: { [flag]: 'false', per_page: 1 },
  })) as {
    data?: unknown[]
  }
  return Array.isArray(answer.data) && answer.data.length === 0
}

/**
 * True when what `op` makes is already so at the service (the write need not be sent); false when
 * it is not, or when `op` has no check (it is sent). The queueable writes are the notification
 * marks (catalog policy `queue`): read (which also marks seen) or seen, one or all.
 */
export async function alreadyMade(
  call: OutboxCall,
  op: string,
  input: CallInput,
): Promise<boolean> {
  switch (op) {
    case 'notifications.mark_read':
      return (await shown(call, input))?.attributes?.read === true
    case 'notifications.mark_seen':
      return (await shown(call, input))?.attributes?.seen === true
    case 'notifications.mark_all_read':
      return noneLeft(call, 'read')
    case 'notifications.mark_all_seen':
      return noneLeft(call, 'seen')
    default:
      return false
  }
}
