import type { z } from 'zod'

/**
 * Fields whose value main or the renderer acts on (ids used in paths, kinds, hashes, sizes, file
 * names, addresses, credentials): never read tolerantly. A row where one of them does not fit is
 * kept only as a marked, partial row.
 */
const STRICT_FIELD =
  /^(id|type)$|(^|_)(id|ids|sha256|sha1|md5|hash|checksum|size|bytes|file_?name|path|url|token|secret|password)$/i

/** How a row was read: fields shown as text, or a row that did not fit at all. */
export interface RowMark {
  /** Dotted paths (within the row) of fields of another type, now text. */
  asText?: string[]
  /** The row did not fit (a field that must be exact, or a required one missing): shown as sent. */
  partial?: true
}

/** The key under which a row carries its mark (never a field name the service uses). */
export const ROW_MARK = '__scandesk'

/** A tolerant reading: the data, what to tell the user once, and the fields for the log. */
export interface TolerantRead {
  data: unknown
  warnings: string[]
  /** Dotted paths with [] for rows, for the log (names only, never values). */
  fields: string[]
}

type Path = (string | number)[]

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function at(value: unknown, path: Path): unknown {
  let cur = value
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Record<string | number, unknown>)[key]
  }
  return cur
}

function set(value: unknown, path: Path, next: unknown): void {
  const parent = at(value, path.slice(0, -1))
  if (parent === null || typeof parent !== 'object') return
  const key = path[path.length - 1]
  if (next === undefined) delete (parent as Record<string | number, unknown>)[key]
  else
    Object.defineProperty(parent, key, {
      value: next,
      enumerable: true,
      writable: true,
      configurable: true,
    })
}

/** A value as text for display: primitives as written, objects and arrays as JSON (bounded). */
export function asText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'object') return JSON.stringify(value).slice(0, 1000)
  return String(value).slice(0, 1000)
}

function strict(path: Path): boolean {
  return path.some((key) => typeof key === 'string' && STRICT_FIELD.test(key))
}

/** A field's path within its row, cut before the first array index (the whole list is one field). */
function fieldOf(path: Path, rowLength: number): Path {
  const field = path.slice(rowLength)
  const index = field.findIndex((key) => typeof key === 'number')
  return index < 0 ? field : field.slice(0, index)
}

interface TextField {
  field: Path
  text: string
  /** Left out of the answer read (the text did not fit the schema either). */
  removed: boolean
}

/**
 * Reads an answer that failed its schema as much as safety allows. Fields that only display
 * (names, descriptions, counts shown as numbers, …) of another type are shown as text; a row in
 * which a field main or the view acts on does not fit, or a required field is missing, is kept as
 * sent and marked partial; anything outside the rows (the envelope, paging) must fit. Returns
 * null when the answer cannot be read at all (then it is refused as before).
 */
export function readTolerantly(schema: z.ZodType, value: unknown): TolerantRead | null {
  if (!isObject(value) || !('data' in value)) return null
  const list = Array.isArray(value.data)
  const original = list ? (value.data as unknown[]) : [value.data]
  const work = structuredClone(value) as Record<string, unknown>
  // Position in the answer as sent of each row still being read.
  let origin = original.map((_, i) => i)
  const textFields = new Map<number, Map<string, TextField>>()
  const partial = new Set<number>()
  for (let round = 0; round < 4; round++) {
    const result = schema.safeParse(work)
    if (result.success) return finish(result.data, list, original, origin, textFields, partial)
    const drop = new Set<number>()
    for (const issue of result.error.issues) {
      const path = issue.path as Path
      if (path[0] !== 'data') return null
      if (list && typeof path[1] !== 'number') return null
      const position = list ? (path[1] as number) : 0
      const row = origin[position]
      if (partial.has(row) || drop.has(position)) continue
      const rowPath: Path = list ? ['data', position] : ['data']
      const field = fieldOf(path, rowPath.length)
      const fieldPath = [...rowPath, ...field]
      const current = at(work, fieldPath)
      const tried = textFields.get(row)?.get(field.join('.'))
      // A field that must be exact, a missing one, the row itself, or one that fits neither as
      // text nor left out: the row is kept as sent, marked partial.
      if (
        strict(field) ||
        field.length === 0 ||
        (current === undefined && !tried) ||
        tried?.removed
      ) {
        if (!list) return null
        partial.add(row)
        drop.add(position)
        continue
      }
      const fields = textFields.get(row) ?? new Map<string, TextField>()
      if (!tried) {
        // First as text (a name sent as a number fits a text field), then left out.
        const text = asText(current)
        fields.set(field.join('.'), { field, text, removed: false })
        set(work, fieldPath, text)
      } else {
        tried.removed = true
        set(work, fieldPath, undefined)
      }
      textFields.set(row, fields)
    }
    if (list && drop.size) {
      work.data = (work.data as unknown[]).filter((_, i) => !drop.has(i))
      origin = origin.filter((_, i) => !drop.has(i))
    }
  }
  return null
}

function finish(
  parsed: unknown,
  list: boolean,
  original: unknown[],
  origin: number[],
  textFields: Map<number, Map<string, TextField>>,
  partial: Set<number>,
): TolerantRead {
  const out = parsed as Record<string, unknown>
  const read = list ? (out.data as unknown[]) : [out.data]
  const rows = original.map((sent, i) => {
    if (partial.has(i)) return markRow(sent, { partial: true })
    const parsedRow = read[origin.indexOf(i)]
    const fields = textFields.get(i)
    if (!fields || !isObject(parsedRow)) return parsedRow
    const copy = structuredClone(parsedRow)
    for (const { field, text } of fields.values()) set(copy, field, text)
    return markRow(copy, { asText: [...fields.keys()] })
  })
  out.data = list ? rows : rows[0]
  const named = [
    ...new Set(
      [...textFields.entries()].filter(([i]) => !partial.has(i)).flatMap(([, f]) => [...f.keys()]),
    ),
  ].sort()
  const asTextRows = [...textFields.keys()].filter((i) => !partial.has(i)).length
  const warnings: string[] = []
  if (asTextRows)
    warnings.push(
      `${list ? `${asTextRows} row${asTextRows === 1 ? '' : 's'} had` : 'This answer had'} a field of another type than expected (${named.slice(0, 5).join(', ')}): shown as text.`,
    )
  if (partial.size)
    warnings.push(
      `${partial.size} row${partial.size === 1 ? '' : 's'} did not fit what ScanDesk expects and ${partial.size === 1 ? 'is' : 'are'} shown as sent, marked.`,
    )
  const prefix = list ? 'data[].' : 'data.'
  const fields = named.map((f) => prefix + f)
  if (partial.size) fields.push(list ? 'data[] (whole row)' : 'data')
  return { data: out, warnings, fields }
}

function markRow(row: unknown, mark: RowMark): unknown {
  return isObject(row) ? { ...row, [ROW_MARK]: mark } : { value: asText(row), [ROW_MARK]: mark }
}
