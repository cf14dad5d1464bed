import { MAX_DOWNLOAD_BYTES, type Settings } from '@contract/channels'
import type { SettingsRepo } from '../store/settings-repo'

const MISMATCH_KEY = 'mismatch_action'
const NOTIFY_KEY = 'notify_on_finish'
const MAX_BYTES_KEY = 'max_download_bytes'

/** The download preferences of the settings screen, with their defaults. */
export type DownloadPreferences = Pick<
  Settings,
  'mismatchAction' | 'notifyOnFinish' | 'maxDownloadBytes'
>

/** A stored largest-download size, or the default when missing or out of bounds. */
function maxBytesOf(value: unknown): number {
  return typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= MAX_DOWNLOAD_BYTES.min &&
    value <= MAX_DOWNLOAD_BYTES.max
    ? value
    : MAX_DOWNLOAD_BYTES.default
}

/** Reads the download preferences: quarantine on mismatch, notify, 4 GiB at most, unless changed. */
export function readDownloadPreferences(settings: SettingsRepo): DownloadPreferences {
  const action = settings.get<unknown>(MISMATCH_KEY, 'quarantine')
  const notify = settings.get<unknown>(NOTIFY_KEY, true)
  return {
    mismatchAction: action === 'delete' ? 'delete' : 'quarantine',
    notifyOnFinish: notify !== false,
    maxDownloadBytes: maxBytesOf(settings.get<unknown>(MAX_BYTES_KEY, MAX_DOWNLOAD_BYTES.default)),
  }
}

/** Stores the given download preferences (undefined fields stay as they are). */
export function writeDownloadPreferences(
  settings: SettingsRepo,
  patch: Partial<DownloadPreferences>,
): void {
  if (patch.mismatchAction !== undefined) settings.set(MISMATCH_KEY, patch.mismatchAction)
  if (patch.notifyOnFinish !== undefined) settings.set(NOTIFY_KEY, patch.notifyOnFinish)
  if (patch.maxDownloadBytes !== undefined)
    settings.set(MAX_BYTES_KEY, maxBytesOf(patch.maxDownloadBytes))
}
