// What ScanDesk says about webhook deliveries where the service's interface stops: it lists and
// shows them (webhooks.deliveries, webhooks.delivery) and has no operation to send one again.

/** Said above a webhook's deliveries. */
export const NO_REDELIVERY =
  'Redelivery: the service’s interface (v2) lists and shows a webhook’s deliveries but has no operation to send one again, so ScanDesk cannot redeliver a failed delivery. Once the receiver answers again, later events are delivered as usual.'

/** Said in a failed delivery's details, where one would look for "Redeliver". */
export function deliveryNote(attributes: Record<string, unknown>): string | null {
  if (attributes.status !== 'failed') return null
  return 'This delivery failed and cannot be sent again from here: the service’s interface (v2) has no redelivery. Fix the receiver (the request and the answer are below); the next events of this webhook are delivered as usual.'
}
