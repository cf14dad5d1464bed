// One rule for every name a user types or a file brings that ScanDesk keeps and shows as its own
// (saved views, account labels; later templates, labels, owners): trimmed, bounded, and free of
// anything that makes it read other than it is — control characters (a NUL, a newline), the
// bidirectional controls (`\u202Egnp.exe` shows as `exe.png`), line separators and invisible
// characters that hide a difference between two names. Joiners (ZWJ, ZWNJ) stay: scripts and
// emoji need them.
import { z } from 'zod'

/** Code points a kept name may not hold (controls, bidi controls, separators, invisibles). */
const HIDDEN =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what it finds
  /[\u0000-\u001F\u007F-\u009F\u061C\u180E\u200B\u200E\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]/u

/** `text` without its hidden characters, trimmed (to read a name kept before the rule). */
export function withoutHidden(text: string): string {
  return text.replace(new RegExp(HIDDEN.source, 'gu'), '').trim()
}

/** The first hidden character of `text` as `U+XXXX`, or null when there is none. */
export function hiddenCharacterOf(text: string): string | null {
  const found = HIDDEN.exec(text)
  if (!found) return null
  return `U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

/**
 * A name ScanDesk keeps: trimmed, 1 to `max` characters, no hidden character (the error names
 * it: "holds U+202E, an invisible control or direction character"). `empty` is the message for
 * a blank one.
 */
export function keptName(max: number, empty = 'is required') {
  return z
    .string()
    .trim()
    .min(1, empty)
    .max(max, `is longer than ${max} characters`)
    .superRefine((value, ctx) => {
      const hidden = hiddenCharacterOf(value)
      if (hidden)
        ctx.addIssue({
          code: 'custom',
          message: `holds ${hidden}, an invisible control or direction character: type the name without it`,
        })
    })
}

/** Keys that would reach an object's prototype (`__proto__`) or shadow its machinery. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
])

/**
 * The own keys of `value` (a parsed JSON object, before a schema sees it) that are prototype
 * keys: zod's records drop `__proto__` silently, so a caller refuses them first.
 */
export function prototypeKeysOf(value: unknown): string[] {
  if (!value || typeof value !== 'object') return []
  return Object.keys(value).filter((k) => PROTOTYPE_KEYS.has(k))
}

/**
 * The path of the first prototype key anywhere in `value` (a parsed JSON value: iterative, any
 * depth), or null.
 */
export function prototypeKeyPath(value: unknown): (string | number)[] | null {
  const stack: [unknown, (string | number)[]][] = [[value, []]]
  while (stack.length) {
    const [node, at] = stack.pop()!
    if (node === null || typeof node !== 'object') continue
    if (Array.isArray(node)) node.forEach((v, i) => stack.push([v, [...at, i]]))
    else
      for (const key of Object.keys(node)) {
        if (PROTOTYPE_KEYS.has(key)) return [...at, key]
        stack.push([(node as Record<string, unknown>)[key], [...at, key]])
      }
  }
  return null
}

/**
 * A record of string keys (each `key`) to `entry`, refusing a prototype key with an error
 * ("holds the key __proto__, which ScanDesk does not take") instead of dropping it.
 */
export function recordRefusingPrototypeKeys<K extends z.ZodString, V extends z.ZodType>(
  key: K,
  entry: V,
) {
  return z.preprocess(
    (value, ctx) => {
      for (const bad of prototypeKeysOf(value))
        ctx.issues.push({
          code: 'custom',
          input: value,
          path: [bad],
          message: `holds the key ${bad}, which ScanDesk does not take`,
        })
      return value
    },
    z.record(key, entry),
  )
}
