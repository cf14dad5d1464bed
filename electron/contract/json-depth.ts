// How deep JSON may nest where ScanDesk reads it from outside (bridge requests, the service's
// answers, imported files): far deeper than anything real, far below what the recursive steps
// after parsing (schema checks, cloning, stringifying) can take without overflowing the stack.

/** Levels of arrays and objects a JSON text or value may nest at most. */
export const MAX_JSON_DEPTH = 64

/**
 * True when `text` (JSON) nests arrays and objects more than `max` levels deep. One pass over the
 * characters, strings skipped; works on malformed text too (parsing reports that).
 */
export function textNestsDeeper(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // a backslash: the next character is escaped
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}

/**
 * True when `value` nests arrays and objects more than `max` levels deep (an IPC payload, a
 * parsed file). Iterative, so a value of any depth is measured without a stack overflow.
 */
export function valueNestsDeeper(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  const seen = new Set<object>()
  while (stack.length) {
    const [node, depth] = stack.pop()!
    if (node === null || typeof node !== 'object' || seen.has(node)) continue
    if (depth + 1 > max) return true
    seen.add(node)
    for (const child of Array.isArray(node) ? node : Object.values(node))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1])
  }
  return false
}
