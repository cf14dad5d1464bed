// JSON texts written once: an answer kept in the offline copy is never changed in place (nor is
// the checked reading of one: offline/checked-copy.ts), so the text it is stored as is also the
// text the bridge sends, every time it is served again, instead of a JSON.stringify per call.

/**
 * Values that are never changed in place, with their JSON text once it was written (null until
 * then). Weak: a text goes with its value.
 */
const texts = new WeakMap<object, string | null>()

/** An envelope the bridge text is built around by hand: at most this many keys… */
const ENVELOPE_KEYS = 8
/** …at most this deep (a Result's data, api.call's answer around the service's data). */
const ENVELOPE_DEPTH = 2

/**
 * Marks `value` as never changed in place from now on, so its JSON text is written once and
 * reused (jsonText, toJsonText). Only for values no code changes afterwards: a change would not
 * reach the reused text.
 */
export function keepJsonText(value: unknown): void {
  if (typeof value === 'object' && value !== null && !texts.has(value)) texts.set(value, null)
}

/** JSON.stringify(value), written once for a value marked by keepJsonText. */
export function jsonText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value)
  const known = texts.get(value)
  if (typeof known === 'string') return known
  const text = JSON.stringify(value)
  if (known === null) texts.set(value, text)
  return text
}

function isEnvelope(value: object): value is Record<string, unknown> {
  return (
    Object.getPrototypeOf(value) === Object.prototype &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  )
}

/**
 * The same text as JSON.stringify(value), reusing the texts of marked values found inside small
 * plain objects near the top (a Result around api.call's answer around the service's data);
 * anything else is written by JSON.stringify itself.
 */
export function toJsonText(value: unknown, depth = ENVELOPE_DEPTH): string | undefined {
  if (typeof value !== 'object' || value === null || texts.has(value)) return jsonText(value)
  if (depth === 0 || !isEnvelope(value)) return JSON.stringify(value)
  const keys = Object.keys(value)
  if (keys.length > ENVELOPE_KEYS) return JSON.stringify(value)
  let out = '{'
  for (const key of keys) {
    const text = toJsonText(value[key], depth - 1)
    // As JSON.stringify: a property whose value has no JSON (undefined, a function) is left out.
    if (text === undefined) continue
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${text}`
  }
  return `${out}}`
}
