// The address keys of the Vulnerabilities screen's own filters (not the list operation's): kept
// beside the registry, without imports, so the registry (on the first screen) names them
// (custom.listReadFromAddress) and the composables that read them take them from below.

/** ScanDesk's due filters (composables/dueDates.ts). */
export const OVERDUE_KEY = 'overdue'
export const DUE_WITHIN_KEY = 'due_within'
/** "First seen after" / "before", as the list's query names them (composables/firstSeenFilter.ts). */
export const FIRST_SEEN_AFTER_KEY = 'first_seen_after'
export const FIRST_SEEN_BEFORE_KEY = 'first_seen_before'
/**
 * What a count that opened the list said, and when it was counted (composables/countedNote.ts):
 * the list says when it no longer holds as many.
 */
export const COUNTED_KEY = 'counted'
export const COUNTED_AT_KEY = 'counted_at'
