import type { RouteLocationRaw } from 'vue-router'

/** One thing the palette offers: a place to go (`to`) or something to do (`run`). */
export interface PaletteItem {
  /** Unique in its group. */
  key: string
  label: string
  /** A second line: the record's host, severity, the screen's group… */
  detail?: string
  to?: RouteLocationRaw
  run?: () => unknown
}

/**
 * A source of things the palette knows without asking anyone (screens, actions, recently opened
 * records, saved views): filtered at every key stroke. `items` is read inside a computed, so a
 * source that reads stores is followed as they change.
 */
export interface LocalSource {
  mode: 'local'
  key: string
  heading: string
  /** What the source offers for `text` (the whole typed text; '' before anything is typed). */
  items(text: string): PaletteItem[]
}

/** What a remote source is asked with. */
export interface RemoteContext {
  accountId: string
  /** The window's account cannot reach its service: search what this computer keeps. */
  offline: boolean
  /** Aborted when the text changed (the request is cancelled in main). */
  signal: AbortSignal
}

/** What a remote source answers. */
export interface RemoteAnswer {
  items: PaletteItem[]
  /** Read from the offline copy, not the service. */
  fromCopy: boolean
}

/**
 * A source the palette asks once typing pauses and the text is long enough (records of a group,
 * found by the list's `search`): every remote source at once, an earlier round cancelled.
 */
export interface RemoteSource {
  mode: 'remote'
  key: string
  heading: string
  /** False when the account's release lacks the source's read: it is not asked. */
  available(): boolean
  search(text: string, context: RemoteContext): Promise<RemoteAnswer>
}

/** A source of the palette. Adding one (saved views) is one entry of PALETTE_SOURCES. */
export type PaletteSource = LocalSource | RemoteSource

/**
 * Makes a source; called once in the palette's setup, so it may use stores, the router and
 * composables (useRecordNames).
 */
export type PaletteSourceFactory = () => PaletteSource | PaletteSource[]

/** One group of results as the palette shows it. */
export interface PaletteGroup {
  key: string
  heading: string
  items: PaletteItem[]
  state: 'ready' | 'loading' | 'error'
  /** Why the group has nothing to show (the failure), when it failed. */
  message?: string
  fromCopy?: boolean
}

/** Whether `part` starts a word of `haystack` (at its start or after a non-alphanumeric). */
function startsAWord(haystack: string, part: string): boolean {
  for (let at = haystack.indexOf(part); at !== -1; at = haystack.indexOf(part, at + 1))
    if (at === 0 || !/[\p{L}\p{N}]/u.test(haystack[at - 1])) return true
  return false
}

/**
 * Whether `text` (any case) finds `words`: each word typed starts a word of them ("port li" finds
 * "Port lists", not "Downloaded files"; "saq" finds "Questionnaires (SAQ)").
 */
export function matchesText(text: string, ...words: (string | undefined | null)[]): boolean {
  const haystack = words.filter(Boolean).join(' ').toLowerCase()
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((part) => startsAWord(haystack, part))
}

/** Whether `text` (any case) is in `words`, as the service's `search` matches (offline). */
export function containsText(text: string, ...words: (string | undefined | null)[]): boolean {
  const needle = text.trim().toLowerCase()
  return words.some((word) => word?.toLowerCase().includes(needle))
}
