// Ids in the service's answers follow the rule ids sent to it follow (ID_PATTERN): an answer
// whose `id`, `…_id` or `…_ids` holds anything else (`t1\u202E`, a path, a space) is refused, so
// it is never shown, kept in the offline copy or sent back as a path parameter.
import { ID_PATTERN } from '@contract/schemas/common'

const ID_KEY = /^(id|.+_id|.+_ids)$/

/**
 * The dotted path of the first id in `data` that breaks the id rule (`data.3.attributes.host_id`),
 * or null. Iterative; strings under id keys only (a number or null is the schema's business).
 */
export function badIdPath(data: unknown): string | null {
  const stack: [unknown, string][] = [[data, '']]
  while (stack.length) {
    const [node, where] = stack.pop()!
    if (node === null || typeof node !== 'object') continue
    const entries = Array.isArray(node)
      ? node.map((v, i) => [String(i), v] as const)
      : Object.entries(node)
    for (const [key, value] of entries) {
      const path = where ? `${where}.${key}` : key
      const idKey = !Array.isArray(node) && ID_KEY.test(key)
      if (idKey && typeof value === 'string' && !ID_PATTERN.test(value)) return path
      if (idKey && Array.isArray(value)) {
        const i = value.findIndex((v) => typeof v === 'string' && !ID_PATTERN.test(v))
        if (i >= 0) return `${path}.${i}`
      }
      if (value !== null && typeof value === 'object') stack.push([value, path])
    }
  }
  return null
}
