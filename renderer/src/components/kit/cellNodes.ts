import { createTextVNode, Fragment, h, type VNode } from 'vue'
import { SEVERITIES } from '@/components/kit/severity'
import type { ColumnDef, ColumnKind } from '@/resources'
import { formatDateTime } from '@/utils/format'

// A table's cells as plain elements, drawn in the table's own render: a list of 100 rows has
// about a thousand cells, and a component per cell (and one per tag) was most of a page's cost.
// Tags carry Element Plus' el-tag classes (the look of `<el-tag size="small">`) as one element, an
// inline block rather than el-tag's flex box around a content span (a list's rows hold hundreds of
// tags: each element and each flex box is style and layout work on every page drawn); a severity
// tag's fill is app.css's rule for its `data-severity`, not a style of its own. Their styles and
// the cells' own are CellValue.vue's, which every table loads.
// Service data is hostile content: everything is rendered as text, never as HTML.

/** What a cell shows besides the value itself. */
export interface CellLook {
  labels?: Readonly<Record<string, string>>
  tones?: Readonly<Record<string, 'warning' | 'danger' | 'success'>>
}

/** `<el-tag size="small" disable-transitions>`'s look as one element. */
export function tagNode(
  text: string,
  o: {
    type?: string
    effect?: 'dark' | 'light' | 'plain'
    attrs?: Record<string, string>
  } = {},
): VNode {
  return h(
    'span',
    {
      class: `el-tag el-tag--${o.type ?? 'primary'} el-tag--small el-tag--${o.effect ?? 'light'} cell-tag`,
      ...o.attrs,
    },
    text,
  )
}

/** A value as text: an empty one as a dash, an object as its JSON. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '—'
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

/**
 * The words of a value of a kind drawn as words alone (a date, yes or no, text, a number); null
 * for an empty value and for the kinds drawn with markup (tags, a progress).
 */
function plainText(value: unknown, kind: ColumnKind | undefined): string | null {
  if (value === null || value === undefined || value === '') return null
  switch (kind) {
    case 'datetime':
      return formatDateTime(String(value))
    case 'boolean':
      return value ? 'Yes' : 'No'
    case 'severity':
    case 'tags':
    case 'status':
    case 'progress':
    case 'severity-counts':
      return null
    default:
      return cellText(value)
  }
}

/**
 * A value of a column kind as plain elements; null for a kind drawn by a component (progress:
 * CellValue's el-progress).
 */
export function cellValueNode(
  value: unknown,
  kind: ColumnKind | undefined,
  look: CellLook = {},
): VNode | null {
  if (value === null || value === undefined || value === '')
    return h('span', { class: 'cell--empty' }, '—')
  const text = plainText(value, kind)
  if (text !== null) return h('span', text)
  switch (kind) {
    case 'severity':
      return tagNode(cellText(value), {
        type: 'info',
        effect: 'dark',
        attrs: { 'data-severity': String(value) },
      })
    case 'tags': {
      // the tags side by side, no box around them (CellValue.vue spaces them); none as a dash
      const tags = Array.isArray(value) ? value.map(String) : []
      if (!tags.length) return h('span', { class: 'cell--empty' }, '—')
      return h(
        Fragment,
        tags.map((t) => tagNode(t, { type: 'primary' })),
      )
    }
    case 'status': {
      const text = cellText(value)
      return tagNode(look.labels?.[text] ?? text.replace(/_/g, ' '), {
        type: look.tones?.[text] ?? 'info',
      })
    }
    case 'severity-counts': {
      const v = typeof value === 'object' ? (value as Record<string, unknown>) : {}
      const counts = SEVERITIES.filter((s) => Number(v[s]) > 0)
      return h(Fragment, [
        ...counts.map((s) =>
          tagNode(`${Number(v[s])} ${s.charAt(0).toUpperCase()}`, {
            effect: 'dark',
            attrs: { title: s, 'data-severity': s },
          }),
        ),
        ...(counts.length ? [] : [h('span', { class: 'cell--empty' }, 'none')]),
      ])
    }
    default:
      return null
  }
}

/**
 * One cell of a resource table: the column's value, or, where the column says so, why the value
 * is not known yet (a scan's findings while it runs), or that a change made offline waits in the
 * outbox ("Read (pending)") until the service takes it. Null: the value is drawn by CellValue.
 * The cell itself (LightTable's td) carries the column's key; words are its text, no element.
 */
export function resourceCellNode(
  column: ColumnDef,
  id: string,
  attributes: Record<string, unknown>,
  pending: (ops: readonly string[], id: string) => boolean,
): VNode | null {
  const unknown = column.notKnown?.(attributes) ?? null
  if (unknown)
    return h(
      'span',
      { class: 'resource-cell--muted', title: unknown.long, 'data-cell-state': 'unknown' },
      unknown.short,
    )
  const p = column.pending
  if (p && attributes[column.key] !== p.value && pending(p.ops, id))
    return h(
      'span',
      {
        class: 'resource-cell--pending',
        title: 'Waits in the outbox; sent when the service is back.',
        'data-cell-state': 'pending',
      },
      p.text,
    )
  const text = plainText(attributes[column.key], column.kind)
  if (text !== null) return createTextVNode(text)
  return cellValueNode(attributes[column.key], column.kind, column)
}
