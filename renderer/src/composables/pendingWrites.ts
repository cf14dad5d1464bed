import type { OutboxItem } from '@contract/offline'
import { useOutboxStore } from '@/stores/outbox'

/**
 * True when a write of one of `ops` waits in `items` for the record `id`, or for every record (a
 * "mark all" has no target). A refused item (`failed`) no longer waits to be sent: the outbox
 * shows it with the service's words until the user retries or discards it.
 */
export function isPendingFor(
  items: readonly OutboxItem[],
  ops: readonly string[],
  id: string,
): boolean {
  return items.some(
    (i) => i.state !== 'failed' && ops.includes(i.op) && (i.target === null || i.target === id),
  )
}

/** The writes of this window's account that wait in the outbox, asked per record. */
export function usePendingWrites() {
  const outbox = useOutboxStore()
  /** True while a write of `ops` for record `id` (or for all records) waits to be sent. */
  const pending = (ops: readonly string[], id: string): boolean =>
    isPendingFor(outbox.items, ops, id)
  return { pending }
}
