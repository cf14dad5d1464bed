import type { Settings } from '@contract/channels'
import type { SettingsRepo } from '../store/settings-repo'

const MISMATCH_KEY = 'mismatch_action'
const NOTIFY_KEY = 'notify_on_finish'

/** The download preferences of the settings screen, with their defaults. */
export type DownloadPreferences = Pick<Settings, 'mismatchAction' | 'notifyOnFinish'>

/** Reads the download preferences: quarantine on mismatch and notify, unless changed. */
export function readDownloadPreferences(settings: SettingsRepo): DownloadPreferences {
  const action = settings.get<unknown>(MISMATCH_KEY, 'quarantine')
  const notify = settings.get<unknown>(NOTIFY_KEY, true)
  return {
    mismatchAction: action === 'delete' ? 'delete' : 'quarantine',
    notifyOnFinish: notify !== false,
  }
}

/** Stores the given download preferences (undefined fields stay as they are). */
export function writeDownloadPreferences(
  settings: SettingsRepo,
  patch: Partial<DownloadPreferences>,
): void {
  if (patch.mismatchAction !== undefined) settings.set(MISMATCH_KEY, patch.mismatchAction)
  if (patch.notifyOnFinish !== undefined) settings.set(NOTIFY_KEY, patch.notifyOnFinish)
}
