import { flushPromises } from '@vue/test-utils'
import { nextTick } from 'vue'
import { byTestId, countDraws } from '@/test/dom'
import { describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { resourceByKey } from '@/resources'
import { apiCalls, listAnswer, useTwoAccounts } from '@/test/composables'
import { deferred, Fail } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import ResourceListView from '@/views/resources/ResourceListView.vue'
import ConfirmHost from './ConfirmHost.vue'
import ResourceTable from './ResourceTable.vue'
import LightTable from './table/LightTable.vue'

let permissions: string[]

const answer = (data: unknown) => ({ data: { data }, fetchedAt: '', fromCache: false })

const fake = useTwoAccounts(() => {
  permissions = ['targets.read', 'targets.write', 'scanners.read']
  fake.handle('api.call', (p: { op: string; input?: { body?: { ids: string[] } } }) => {
    if (p.op === 'user.permissions') return answer({ role: 'analyst', permissions })
    if (p.op === 'user.organization')
      return answer({ id: 'org-1', type: 'organization', attributes: { name: 'Acme Payments' } })
    if (p.op === 'targets.bulk_delete') return answer({ deleted: p.input?.body?.ids ?? [] })
    if (p.op.endsWith('.list')) return listAnswer('T', 3, 42)
    return new Fail({ code: 'INTERNAL', message: `unexpected ${p.op}` })
  })
})

function mountTable(key: string) {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', component: { render: () => null } },
      { path: '/x/:id', name: `${key}-detail`, component: { render: () => null } },
    ],
  })
  const resource = resourceByKey(key)!
  mountWithApp(ConfirmHost, { global: { plugins: [router] } })
  return mountWithApp(ResourceTable, { props: { resource }, global: { plugins: [router] } })
}

describe('a resource table', () => {
  it('gives its columns the room of an actions column whose rows offer nothing', async () => {
    const actionsCol = () =>
      document.querySelector<HTMLElement>('.light-table__table colgroup col:last-child')!.style
        .width
    // hosts: read only (no Delete, no row actions): the title and the rest get the room
    permissions = ['hosts.read']
    const hosts = mountTable('hosts')
    await flushPromises()
    expect(actionsCol()).toBe('16px')
    hosts.unmount()
    document.body.innerHTML = ''
    // targets the user may delete: Delete on each row
    permissions = ['targets.read', 'targets.write']
    mountTable('targets')
    await flushPromises()
    expect(actionsCol()).toBe('110px')
  })

  it('says it is final only once both its rows and the user permissions are in', async () => {
    const held = deferred<unknown>()
    fake.handle('api.call', (p: { op: string }) => {
      if (p.op === 'user.permissions') return held.promise
      if (p.op.endsWith('.list')) return listAnswer('T', 3, 42)
      return new Fail({ code: 'INTERNAL', message: `unexpected ${p.op}` })
    })
    mountTable('targets')
    await flushPromises()
    const root = document.querySelector<HTMLElement>('.resource-table')!
    expect(root.dataset.resource).toBe('targets')
    expect(root.dataset.account).toBe('acct-aaaa')
    // rows are shown, but whether "New target" is offered still waits for the permissions
    expect(byTestId('resource-row')).toHaveLength(3)
    expect(root.dataset.state).toBe('loading')
    held.resolve(answer({ role: 'analyst', permissions: ['targets.read', 'scanners.write'] }))
    await flushPromises()
    expect(root.dataset.state).toBe('ready')
    expect(byTestId('resource-create')).toHaveLength(0)
  })

  it('says it is final with an error when the service refuses the list', async () => {
    fake.handle('api.call', (p: { op: string }) => {
      if (p.op === 'user.permissions') return answer({ role: 'analyst', permissions })
      return new Fail({ code: 'FORBIDDEN', status: 403, message: 'Not allowed' })
    })
    mountTable('targets')
    await flushPromises()
    expect(document.querySelector<HTMLElement>('.resource-table')!.dataset.state).toBe('error')
  })

  it('shows the page the service answered with its total', async () => {
    mountTable('targets')
    await flushPromises()
    expect(byTestId('resource-row').map((r) => r.dataset.id)).toEqual(['T-1', 'T-2', 'T-3'])
    expect(byTestId('resource-pager')[0].textContent).toContain('42')
    expect(apiCalls(fake).find((c) => c.op === 'targets.list')?.input).toEqual({
      query: { page: 1, per_page: 25, sort: '-created_at' },
    })
  })

  it('makes its page-size dropdown only when opened, and asks the chosen size from page 1', async () => {
    mountTable('targets')
    await flushPromises()
    const pager = byTestId('resource-pager')[0]
    const sizes = pager.querySelector<HTMLElement>('.el-pagination__sizes .el-select__wrapper')!
    expect(pager.querySelector('[aria-label="Rows a page"]')).not.toBeNull()
    expect(pager.textContent).toContain('25/page')
    expect(document.querySelectorAll('.el-select-dropdown__item')).toHaveLength(0)
    sizes.click()
    await flushPromises()
    const items = [...document.querySelectorAll<HTMLElement>('.el-select-dropdown__item')]
    expect(items.map((el) => el.textContent?.trim())).toEqual([
      '10/page',
      '25/page',
      '50/page',
      '100/page',
    ])
    items.find((el) => el.textContent?.trim() === '100/page')!.click()
    await flushPromises()
    const lists = apiCalls(fake).filter((c) => c.op === 'targets.list')
    expect(lists.at(-1)?.input).toEqual({ query: { page: 1, per_page: 100, sort: '-created_at' } })
  })

  it('draws its rows once a page, given no slot by the page', async () => {
    const wrapper = mountTable('targets')
    await flushPromises()
    const draws = countDraws(wrapper.findComponent(LightTable))
    document.querySelector<HTMLElement>('[data-testid="resource-pager"] .btn-next')!.click()
    await flushPromises()
    expect(
      apiCalls(fake)
        .filter((c) => c.op === 'targets.list')
        .at(-1)?.input,
    ).toEqual({
      query: { page: 2, per_page: 25, sort: '-created_at' },
    })
    // the rows of page 2, not the loading flag or this table's own redraws
    expect(draws()).toBe(1)
  })

  it('says once what main read in part, marks those rows and offers no action on a row as sent', async () => {
    const warnings = [
      '1 row had a field of another type than expected (attributes.name): shown as text.',
    ]
    fake.handle('api.call', (p: { op: string }) => {
      if (p.op === 'user.permissions') return answer({ role: 'analyst', permissions })
      if (p.op === 'user.organization')
        return answer({ id: 'org-1', type: 'organization', attributes: { name: 'Acme' } })
      const page = listAnswer('T', 3)
      const rows = page.data.data as Record<string, unknown>[]
      for (const row of rows) (row.attributes as Record<string, unknown>).read = false
      rows[0].__scandesk = { asText: ['attributes.name'] }
      rows[1].__scandesk = { partial: true }
      return { ...page, warnings }
    })
    mountTable('notifications')
    await flushPromises()
    expect(byTestId('answer-warnings')[0].textContent).toContain(warnings[0])
    const marked = byTestId('resource-row').filter((r) =>
      r.querySelector('[data-testid="row-mark"]'),
    )
    expect(marked.map((r) => r.dataset.id)).toEqual(['T-1', 'T-2'])
    const actionsOf = (id: string) =>
      byTestId('resource-row')
        .find((r) => r.dataset.id === id)!
        .querySelector('[data-testid="row-actions"]')
    expect(actionsOf('T-2')).toBeNull()
    expect(actionsOf('T-3')).not.toBeNull()
    // its menu is made on the click, opens, and keeps the focus on the row's Actions button
    expect(document.querySelector('[data-op="notifications.mark_read"]')).toBeNull()
    ;(actionsOf('T-3') as HTMLElement).click()
    await flushPromises()
    const menu = document.getElementById(actionsOf('T-3')!.getAttribute('aria-controls') ?? '')
    expect(menu?.querySelector('[data-op="notifications.mark_read"]')).not.toBeNull()
    expect(document.activeElement).toBe(actionsOf('T-3'))
  })

  it('asks before a bulk delete, naming the count, the account and the organization', async () => {
    mountTable('targets')
    await flushPromises()
    const boxes = document.querySelectorAll<HTMLInputElement>('[data-testid="table-check-row"]')
    boxes[0].click()
    boxes[2].click()
    await flushPromises()
    byTestId('resource-bulk-delete')[0].click()
    await flushPromises()
    expect(byTestId('delete-confirm-text')[0].textContent).toBe('Delete 2 targets?')
    expect(byTestId('confirm-where')[0].textContent).toContain('Account acct-aaaa')
    expect(byTestId('confirm-where')[0].textContent).toContain('Acme Payments')
    expect(apiCalls(fake).some((c) => c.op === 'targets.bulk_delete')).toBe(false)
    byTestId('delete-confirm')[0].click()
    await flushPromises()
    const bulk = apiCalls(fake).find((c) => c.op === 'targets.bulk_delete')
    expect(bulk?.input).toEqual({ body: { ids: ['T-1', 'T-3'] } })
    expect(apiCalls(fake).filter((c) => c.op === 'targets.list')).toHaveLength(2)
  })

  it('has one New button for scans: the wizard, which offers the single form itself', async () => {
    permissions = ['scans.read', 'scans.write']
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/', component: { render: () => null } },
        { path: '/scans/new', component: { render: () => null } },
      ],
    })
    await router.push('/')
    mountWithApp(ResourceTable, {
      props: { resource: resourceByKey('scans')! },
      global: { plugins: [router] },
    })
    await flushPromises()
    const buttons = [...document.querySelectorAll('.resource-table__toolbar button')]
    expect(buttons.filter((b) => /New scan/.test(b.textContent ?? ''))).toHaveLength(1)
    byTestId('resource-create')[0].click()
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe('/scans/new')
    expect(document.querySelector('.el-overlay')?.getAttribute('style') ?? 'display: none').toMatch(
      /display: none/,
    )
  })

  it('offers no writes in an area the user may only read', async () => {
    mountTable('scanners')
    await flushPromises()
    expect(byTestId('resource-row')).toHaveLength(3)
    expect(byTestId('resource-create')).toHaveLength(0)
    expect(byTestId('resource-delete')).toHaveLength(0)
    expect(byTestId('row-actions')).toHaveLength(0)
  })

  it('is not offered, and asks nothing, where the account’s release lacks the group', async () => {
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { release: '5.0.0-beta1' })],
      activeId: 'acct-aaaa',
    })
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [{ path: '/', component: { render: () => null } }],
    })
    mountWithApp(ResourceListView, { props: { group: 'webhooks' }, global: { plugins: [router] } })
    await flushPromises()
    expect(byTestId('not-in-release')).toHaveLength(1)
    expect(apiCalls(fake).some((c) => c.op.startsWith('webhooks.'))).toBe(false)
  })

  it('shows a failed list with its message and asks again on Retry', async () => {
    let first = true
    fake.handle('api.call', (p: { op: string }) => {
      if (p.op === 'targets.list' && first) {
        first = false
        return new Fail({ code: 'OFFLINE', message: 'The service cannot be reached.' })
      }
      return p.op === 'targets.list' ? listAnswer('T', 1) : answer({ permissions: [] })
    })
    mountTable('targets')
    await flushPromises()
    expect(byTestId('resource-error')[0].textContent).toContain('The service cannot be reached.')
    byTestId('resource-retry')[0].click()
    await flushPromises()
    expect(byTestId('resource-error')).toHaveLength(0)
    expect(byTestId('resource-row')).toHaveLength(1)
  })

  it('moves its cursor with j/k, chooses with x and Shift+x, and its page box follows', async () => {
    mountTable('targets')
    await flushPromises()
    const press = async (key: string, shiftKey = false) => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key, shiftKey, bubbles: true }))
      await nextTick()
    }
    const current = () =>
      [...document.querySelectorAll<HTMLElement>('tbody tr[aria-current="true"]')].map(
        (r) => r.querySelector<HTMLElement>('[data-testid="resource-row"]')!.dataset.id,
      )
    const checked = () =>
      [...document.querySelectorAll<HTMLInputElement>('[data-testid="table-check-row"]')].map(
        (b) => b.checked,
      )
    const page = () => document.querySelector<HTMLInputElement>('[data-testid="table-check-page"]')!
    expect(current()).toEqual([])
    await press('j')
    await press('j')
    await press('k')
    expect(current()).toEqual(['T-1'])
    expect(document.querySelector('tbody tr.is-current')).not.toBeNull()
    await press('x')
    expect(checked()).toEqual([true, false, false])
    expect([page().checked, page().indeterminate]).toEqual([false, true])
    await press('ArrowDown')
    await press('ArrowDown')
    await press('x', true)
    expect(current()).toEqual(['T-3'])
    expect(checked()).toEqual([true, true, true])
    expect([page().checked, page().indeterminate]).toEqual([true, false])
    expect(byTestId('resource-bulk-delete')[0].textContent).toContain('Delete 3 targets')
    // the page box then chooses none
    page().click()
    await nextTick()
    expect(checked()).toEqual([false, false, false])
    expect(byTestId('resource-bulk-delete')[0].textContent).toContain('Delete selected')
  })

  it('shows the columns the address names, in its order, and links the first to the record', async () => {
    const wrapper = mountTable('targets')
    await flushPromises()
    const headers = () =>
      [...document.querySelectorAll('thead th[data-column]')].map((th) => th.textContent!.trim())
    expect(headers()).toEqual(['Name', 'Address', 'Tags', 'Hosts', 'Last scanned'])
    await wrapper.vm.$router.push('/?columns=address,name')
    await flushPromises()
    expect(headers()).toEqual(['Address', 'Name'])
    const first = document.querySelector('tbody tr')!
    expect(first.querySelector('[data-testid="resource-open"]')!.textContent).toBe('192.0.2.1')
    expect(first.querySelectorAll('td')[2].textContent).toBe('T 1')
    // a cell's words are its own text, and the first column's link holds them alone: a row's
    // elements are most of what a page of rows costs to draw
    const name = first.querySelector('td[data-column="name"]')!
    expect([name.childElementCount, name.childNodes.length]).toEqual([0, 1])
    expect(first.querySelector('[data-testid="resource-open"]')!.childElementCount).toBe(0)
  })
})
