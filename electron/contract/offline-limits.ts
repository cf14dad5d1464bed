// The offline copy's size bounds, free of zod so the renderer's first screen can read them without
// loading the schemas (../offline re-exports them).

/** Bounds and default of Settings.cacheMaxBytes (per account). */
export const CACHE_MAX_BYTES = {
  min: 16 * 1024 ** 2,
  max: 16 * 1024 ** 3,
  default: 512 * 1024 ** 2,
} as const
