import { createRng } from '../../engine/rng'
import type { Rng } from '../../types'

/** FNV-1a hash of a string (32 bits). */
export function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** A deterministic Rng derived from a key (the same key always draws the same findings). */
export function keyedRng(key: string): Rng {
  return createRng(hash(key))
}
