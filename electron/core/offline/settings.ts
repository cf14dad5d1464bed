import { CACHE_MAX_BYTES } from '@contract/offline'
import type { SettingsRepo } from '../store/settings-repo'

const CACHE_MAX_KEY = 'cache_max_bytes'

/** The offline copy's cap per account, or the default when missing or out of bounds. */
export function readCacheMaxBytes(settings: SettingsRepo): number {
  const value = settings.get<unknown>(CACHE_MAX_KEY, CACHE_MAX_BYTES.default)
  return typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= CACHE_MAX_BYTES.min &&
    value <= CACHE_MAX_BYTES.max
    ? value
    : CACHE_MAX_BYTES.default
}

/** Stores the cap (already validated by the channel schema). */
export function writeCacheMaxBytes(settings: SettingsRepo, value: number | undefined): void {
  if (value !== undefined) settings.set(CACHE_MAX_KEY, value)
}
