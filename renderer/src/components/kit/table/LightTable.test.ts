import { mount } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { h } from 'vue'
import type { SortState } from '@/data/useOperationList'
import type { TableColumn } from './columns'
import LightTable from './LightTable.vue'

const COLUMNS: TableColumn[] = [
  { key: 'name', label: 'Name', sortable: true },
  { key: 'kind', label: 'Kind' },
  { key: 'score', label: 'Score', sortable: true, width: 90 },
]
const ROWS = [
  { id: 'r1', name: 'alpha', kind: 'host', score: 3 },
  { id: 'r2', name: 'beta', kind: 'web', score: 9 },
  { id: 'r3', name: 'gamma', kind: 'host', score: 1 },
]
type Row = (typeof ROWS)[number]

const mounted: { unmount(): void }[] = []
afterEach(() => {
  for (const w of mounted.splice(0)) w.unmount()
})

function table(
  props: Partial<{
    columns: TableColumn[]
    rows: Row[]
    sort: SortState
    chosen: (id: string) => boolean
    current: string | null
    loading: boolean
  }> = {},
) {
  const wrapper = mount(LightTable<Row>, {
    props: {
      rows: ROWS,
      columns: COLUMNS,
      sort: { prop: null, order: null },
      selectable: true,
      chosen: () => false,
      rowName: (r: Row) => r.name,
      actionsWidth: 110,
      emptyText: 'No targets here.',
      ...props,
    },
    slots: {
      cell: ({ row, column }: { row: Row; column: TableColumn }) =>
        h('span', { class: 'value' }, String(row[column.key as keyof Row])),
      actions: ({ row }: { row: Row }) => h('button', `Delete ${row.name}`),
    },
    attachTo: document.body,
  })
  mounted.push(wrapper)
  return wrapper
}
const headers = (w: ReturnType<typeof table>) =>
  w.findAll('thead th[scope="col"]').map((th) => th.text())
const ariaSorts = (w: ReturnType<typeof table>) =>
  w.findAll('thead th').map((th) => th.attributes('aria-sort') ?? '-')

describe('the light table', () => {
  it('draws the columns in the order given, each row’s cells under them', async () => {
    const w = table()
    expect(headers(w)).toEqual(['', 'Name', 'Kind', 'Score', 'Actions'])
    expect(
      w
        .findAll('tbody tr')[1]
        .findAll('td .value')
        .map((c) => c.text()),
    ).toEqual(['beta', 'web', '9'])
    await w.setProps({ columns: [COLUMNS[2], COLUMNS[0]] })
    expect(headers(w)).toEqual(['', 'Score', 'Name', 'Actions'])
    expect(
      w
        .findAll('tbody tr')[1]
        .findAll('td .value')
        .map((c) => c.text()),
    ).toEqual(['9', 'beta'])
  })

  it('says the sort in aria-sort and asks ascending, descending, then none on header clicks', async () => {
    const w = table({ sort: { prop: 'score', order: 'descending' } })
    // the check box column and Kind are not sortable: they say nothing
    expect(ariaSorts(w)).toEqual(['-', 'none', '-', 'descending', '-'])
    await w.find('th[data-column="name"]').trigger('click')
    await w.find('th[data-column="kind"]').trigger('click')
    await w.find('th[data-column="score"] button').trigger('click')
    expect(w.emitted('sort')).toEqual([
      [{ prop: 'name', order: 'ascending' }],
      [{ prop: null, order: null }],
    ])
    await w.setProps({ sort: { prop: 'name', order: 'ascending' } })
    expect(ariaSorts(w)).toEqual(['-', 'ascending', '-', 'none', '-'])
    await w.find('th[data-column="name"]').trigger('click')
    expect(w.emitted('sort')!.at(-1)).toEqual([{ prop: 'name', order: 'descending' }])
  })

  it('checks the page box for all rows, half-checks it for some, and names each row’s box', async () => {
    const chosen = new Set<string>()
    const w = table({ chosen: (id) => chosen.has(id) })
    const page = () => w.find<HTMLInputElement>('[data-testid="table-check-page"]').element
    const boxes = () => w.findAll<HTMLInputElement>('[data-testid="table-check-row"]')
    expect([page().checked, page().indeterminate]).toEqual([false, false])
    expect(boxes().map((b) => b.attributes('aria-label'))).toEqual([
      'Select alpha',
      'Select beta',
      'Select gamma',
    ])

    chosen.add('r2')
    await w.setProps({ chosen: (id) => chosen.has(id) })
    expect([page().checked, page().indeterminate]).toEqual([false, true])
    expect(boxes().map((b) => b.element.checked)).toEqual([false, true, false])
    await page().click()
    expect(w.emitted('toggleAll')).toEqual([[true]])

    chosen.add('r1').add('r3')
    await w.setProps({ chosen: (id) => chosen.has(id) })
    expect([page().checked, page().indeterminate]).toEqual([true, false])
    await page().click()
    expect(w.emitted('toggleAll')!.at(-1)).toEqual([false])

    // a row's box toggles that row only; it does not move the cursor
    await boxes()[2].element.click()
    expect(w.emitted('toggle')).toEqual([['r3']])
    expect(w.emitted('rowClick')).toBeUndefined()
  })

  it('draws the cursor’s row as current, and a click on a row asks for it', async () => {
    const w = table({ current: 'r2' })
    const current = () => w.findAll('tbody tr[aria-current="true"]').map((r) => r.text())
    expect(current()).toEqual(['betaweb9Delete beta'])
    expect(w.findAll('tbody tr.is-current')).toHaveLength(1)
    await w.findAll('tbody tr')[2].find('td .value').trigger('click')
    expect(w.emitted('rowClick')).toEqual([['r3']])
    await w.setProps({ current: 'r3' })
    expect(current()).toEqual(['gammahost1Delete gamma'])
  })

  it('draws a new page into the rows that are there, each row then saying whose it is', async () => {
    const chosen = new Set(['r2'])
    const w = table({ chosen: (id) => chosen.has(id) })
    const before = w.findAll('tbody tr').map((tr) => tr.element)
    const next = [
      { id: 'r4', name: 'delta', kind: 'web', score: 5 },
      { id: 'r5', name: 'epsilon', kind: 'host', score: 7 },
    ]
    await w.setProps({ rows: next })
    const rows = w.findAll('tbody tr')
    // The first two rows are the same elements, the third is gone: nothing made anew.
    expect(rows.map((tr) => tr.element)).toEqual(before.slice(0, 2))
    expect(rows.map((tr) => tr.attributes('data-row-id'))).toEqual(['r4', 'r5'])
    expect(rows.map((tr) => tr.findAll('.value').map((v) => v.text()))).toEqual([
      ['delta', 'web', '5'],
      ['epsilon', 'host', '7'],
    ])
    expect(rows.map((tr) => tr.find('button').text())).toEqual(['Delete delta', 'Delete epsilon'])
    const boxes = rows.map((tr) => tr.find<HTMLInputElement>('input[type="checkbox"]'))
    // r2's place now holds r5, which is not chosen; the boxes are named for their new rows.
    expect(boxes.map((b) => b.element.checked)).toEqual([false, false])
    expect(boxes.map((b) => b.attributes('aria-label'))).toEqual(['Select delta', 'Select epsilon'])
    await rows[1].trigger('click')
    expect(w.emitted('rowClick')).toEqual([['r5']])
    await boxes[0].setValue(true)
    expect(w.emitted('toggle')).toEqual([['r4']])
  })

  it('says an empty list in words instead of drawing a table, and that it is loading', async () => {
    const w = table({ rows: [] })
    expect(w.attributes('aria-busy')).toBeUndefined()
    await w.setProps({ loading: true })
    expect(w.attributes('aria-busy')).toBe('true')
    expect(w.classes()).toContain('is-loading')
    await w.setProps({ loading: false })
    expect(w.find('table').exists()).toBe(false)
    expect(w.find('[data-testid="table-empty"]').text()).toBe('No targets here.')
    expect(w.find('[data-testid="table-empty"]').attributes('role')).toBe('status')
  })
})
