import { defineComponent, h, type PropType, type VNode, type VNodeArrayChildren } from 'vue'
import type { TableColumn } from './columns'

// The light table's body rows, drawn by a render function: a cell's content is the table's
// `cell` slot called here, its nodes the td's own children. A `<slot>` in the template wrapped
// each cell in a fragment (two empty text nodes around it, made and removed with every page:
// ~2,400 for 100 rows), and a cell could not be bare words: Vue's fragment patch hands a text
// node the element it replaced (vuejs/core's traverseStaticChildren), so words that followed an
// element in a cell stayed as they were. Styles: LightTable.vue's (not scoped: these elements do
// not carry its scope).
// Rows are keyed by their place on the page, not by their record's id: a new page, sort or filter
// patches the rows that are there (their words, attributes and cells' contents) instead of
// removing every row and making new ones; each row says whose it is (`data-row-id`), and nothing
// in a row keeps state of its own (a row's actions menu follows the record's id and opens only
// for the click that made it; its box is drawn from the choice). Focus stays where it was on the
// page, as in a spreadsheet.

/** One row of a light table: its id (the key, the events' argument). */
export interface RowLike {
  id: string
}
/** A slot of the table's (compiled ones give an array of nodes; a render function's, a node). */
type Slot<S> = (scope: S) => VNodeArrayChildren | VNode

export default defineComponent({
  name: 'LightRows',
  props: {
    rows: { type: Array as PropType<readonly RowLike[]>, required: true },
    columns: { type: Array as PropType<readonly TableColumn[]>, required: true },
    selectable: Boolean,
    chosen: { type: Function as PropType<(id: string) => boolean>, required: true },
    current: { type: String as PropType<string | null>, default: null },
    rowName: { type: Function as PropType<(row: RowLike) => string>, required: true },
    cell: {
      type: Function as PropType<Slot<{ row: RowLike; column: TableColumn }>>,
      required: true,
    },
    actions: { type: Function as PropType<Slot<{ row: RowLike }>>, required: true },
  },
  emits: {
    toggle: (id: string) => typeof id === 'string',
    rowClick: (id: string) => typeof id === 'string',
  },
  setup(props, { emit }) {
    const stop = (e: Event) => e.stopPropagation()
    const checkCell = (row: RowLike): VNode =>
      h('td', { key: '$check', class: 'light-table__check' }, [
        h('input', {
          type: 'checkbox',
          checked: props.chosen(row.id),
          'aria-label': `Select ${props.rowName(row)}`,
          'data-testid': 'table-check-row',
          onClick: stop,
          onChange: () => emit('toggle', row.id),
        }),
      ])
    return () =>
      props.rows.map((row, place) => {
        const current = row.id === props.current
        return h(
          'tr',
          {
            key: place,
            class: current ? 'light-table__row is-current' : 'light-table__row',
            'aria-current': current ? 'true' : undefined,
            'data-row-id': row.id,
            onClick: () => emit('rowClick', row.id),
          },
          [
            ...(props.selectable ? [checkCell(row)] : []),
            ...props.columns.map((column) =>
              h('td', { key: column.key, 'data-column': column.key }, props.cell({ row, column })),
            ),
            h('td', { key: '$actions', class: 'light-table__actions' }, props.actions({ row })),
          ],
        )
      })
  },
})
