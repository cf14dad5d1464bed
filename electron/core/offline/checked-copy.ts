import type { OperationDef } from '@contract/catalog/types'
import { readTolerantly } from '../http/tolerant'
import { keepJsonText } from '../json-text'
import type { CachedAnswer } from './cache-store'

/**
 * What checking one stored answer against one operation's schema gave: the data as read, and the
 * warnings of a tolerant reading (undefined when it fit); null when it does not fit.
 */
type Check = { data: unknown; warnings?: string[] } | null

/**
 * Checks already made, by the stored answer's data (the same object while the answer stays warm
 * in the offline copy, renewed by 304s or not), operation and warnings: a copy read again is not
 * checked again. Neither the stored data nor a checked result is ever changed in place.
 */
const checks = new WeakMap<object, Map<OperationDef, { warnings?: string[]; check: Check }>>()

function check(op: OperationDef, copy: CachedAnswer): Check {
  const checked = op.response.safeParse(copy.data)
  // Kept, never changed in place: its JSON text is written once however often it is served.
  if (checked.success) {
    keepJsonText(checked.data)
    return { data: checked.data }
  }
  const read = readTolerantly(op.response, copy.data)
  if (!read) return null
  keepJsonText(read.data)
  // What was said when the answer arrived still holds (a field kept as text now reads as text);
  // what this reading finds besides is added, once.
  const warnings = [...new Set([...(copy.warnings ?? []), ...read.warnings])]
  return { data: read.data, warnings }
}

/**
 * A stored copy checked against the operation's answer schema when it is read, as a fresh answer
 * is: one that fits is given as the schema reads it; one that fits only tolerantly (a display
 * field of another type, a row that does not fit) as the tolerant reading gives it, with its
 * warnings; one that does not fit at all (written by an earlier ScanDesk whose schema was looser,
 * or altered) is null, and is then treated as no copy. The copy was checked when it was written;
 * this check is what keeps a copy from reaching a view that would not accept it from the service.
 */
export function checkedCopy(op: OperationDef, copy: CachedAnswer): CachedAnswer | null {
  let result: Check
  const data = copy.data
  if (typeof data === 'object' && data !== null) {
    let byOp = checks.get(data)
    if (!byOp) checks.set(data, (byOp = new Map()))
    const known = byOp.get(op)
    if (known && known.warnings === copy.warnings) result = known.check
    else byOp.set(op, { warnings: copy.warnings, check: (result = check(op, copy)) })
  } else result = check(op, copy)
  if (!result) return null
  const { data: checkedData, warnings } = result
  return { ...copy, data: checkedData, ...(warnings?.length ? { warnings } : {}) }
}
