/** The reference releases of the service interface (§9), newest first. */
export const RELEASES = ['latest', '5.5.x', '5.4.2', '5.3.0', '5.0.0-beta1'] as const

/** One reference release label. */
export type Release = (typeof RELEASES)[number]

/** Every release: the operation exists since 5.0.0-beta1. */
export const ALL_RELEASES: readonly Release[] = RELEASES
/** Releases from 5.3.0 on (decided here). */
export const SINCE_5_3: readonly Release[] = ['latest', '5.5.x', '5.4.2', '5.3.0']
/** Releases from 5.4.2 on (decided here). */
export const SINCE_5_4: readonly Release[] = ['latest', '5.5.x', '5.4.2']
/** Releases from 5.5.x on (decided here). */
export const SINCE_5_5: readonly Release[] = ['latest', '5.5.x']
/** Only the latest release (interface §9: target host calculation, scan profiles). */
export const LATEST_ONLY: readonly Release[] = ['latest']

/** True when `release` is a known release label. */
export function isRelease(release: string): release is Release {
  return (RELEASES as readonly string[]).includes(release)
}
