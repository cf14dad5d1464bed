import type { OperationDef } from '@contract/catalog/types'
import { readTolerantly } from '../http/tolerant'
import type { CachedAnswer } from './cache-store'

/**
 * A stored copy checked against the operation's answer schema when it is read, as a fresh answer
 * is: one that fits is given as the schema reads it; one that fits only tolerantly (a display
 * field of another type, a row that does not fit) as the tolerant reading gives it, with its
 * warnings; one that does not fit at all (written by an earlier ScanDesk whose schema was looser,
 * or altered) is null, and is then treated as no copy. The copy was checked when it was written;
 * this check is what keeps a copy from reaching a view that would not accept it from the service.
 */
export function checkedCopy(op: OperationDef, copy: CachedAnswer): CachedAnswer | null {
  const checked = op.response.safeParse(copy.data)
  if (checked.success) return { ...copy, data: checked.data }
  const read = readTolerantly(op.response, copy.data)
  if (!read) return null
  // What was said when the answer arrived still holds (a field kept as text now reads as text);
  // what this reading finds besides is added, once.
  const warnings = [...new Set([...(copy.warnings ?? []), ...read.warnings])]
  return { ...copy, data: read.data, ...(warnings.length ? { warnings } : {}) }
}
