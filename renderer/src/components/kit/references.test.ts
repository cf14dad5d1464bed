import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { useOperation } from '@/data/useOperation'
import { resourceByKey, RESOURCES } from '@/resources'
import { apiCalls, mountComposable, useTwoAccounts } from '@/test/composables'
import { byTestId } from '@/test/dom'
import { deferred, Fail, type FakeScandesk } from '@/test/fakeScandesk'
import { mountWithApp } from '@/test/mountApp'
import ResourceDetailView from '@/views/resources/ResourceDetailView.vue'
import AttributeList from './AttributeList.vue'
import ConfirmHost from './ConfirmHost.vue'
import ResourceTable from './ResourceTable.vue'

/** What the fake service holds, per list operation: id → attributes. */
const HELD: Record<string, Record<string, Record<string, unknown>>> = {
  'organizations.list': { 'org-1': { name: 'Acme' }, 'org-2': { name: 'Globex' } },
  'targets.list': { 'tgt-1': { name: 'Web shop' }, 'tgt-2': { name: 'Mail relay' } },
  'schedules.list': { 'sch-1': { name: 'Nightly' } },
  'hosts.list': { 'hst-041': { ip: '10.0.0.41' } },
  'users.list': {
    'usr-1': { email: 'a@x.test', role: 'analyst', organization_id: 'org-1' },
    'usr-2': { email: 'b@x.test', role: 'analyst', organization_id: 'org-2' },
    'usr-3': { email: 'c@x.test', role: 'analyst', organization_id: 'org-1' },
  },
}

type Call = { op: string; input?: { query?: { ids?: string } } }
const answer = (data: unknown) => ({ data: { data }, fetchedAt: '', fromCache: false })
/** A list answer as a service honouring `ids` gives it. */
function listOf(p: Call) {
  const held = HELD[p.op] ?? {}
  const ids = p.input?.query?.ids?.split(',') ?? Object.keys(held)
  return answer(
    ids.filter((id) => id in held).map((id) => ({ id, type: 'x', attributes: held[id] })),
  )
}
const batches = (fake: FakeScandesk, op: string) =>
  (apiCalls(fake) as Call[]).filter((c) => c.op === op && c.input?.query?.ids)

const fake = useTwoAccounts(() => {
  fake.handle('api.call', (p: Call) => {
    if (p.op === 'user.permissions') return answer({ role: 'analyst', permissions: [] })
    if (p.op in HELD) return listOf(p)
    return new Fail({ code: 'NOT_FOUND', message: `nothing for ${p.op}` })
  })
})

/** A router with every resource's detail route (links resolve to /<key>/<id>). */
function router() {
  return createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', component: { render: () => null } },
      ...RESOURCES.map((r) => ({
        path: `/${r.key}/:id`,
        name: `${r.key}-detail`,
        component: { render: () => null },
      })),
    ],
  })
}
const cell = (attr: string) => document.querySelector<HTMLElement>(`[data-attr="${attr}"]`)!

describe('a list column naming other records', () => {
  it('shows the rows at once, then the names from one batch of deduplicated ids', async () => {
    const held = deferred<unknown>()
    fake.handle('api.call', (p: Call) => {
      if (p.op === 'user.permissions') return answer({ role: 'analyst', permissions: [] })
      if (p.op === 'organizations.list') return held.promise.then(() => listOf(p))
      return listOf(p)
    })
    const r = router()
    mountWithApp(ConfirmHost, { global: { plugins: [r] } })
    mountWithApp(ResourceTable, {
      props: { resource: resourceByKey('users')! },
      global: { plugins: [r] },
    })
    await flushPromises()
    expect(byTestId('resource-row')).toHaveLength(3)
    const orgs = () => [...document.querySelectorAll<HTMLElement>('.record-ref')]
    expect(orgs().map((e) => e.dataset.nameState)).toEqual(['loading', 'loading', 'loading'])
    expect(batches(fake, 'organizations.list').map((c) => c.input?.query)).toEqual([
      { ids: 'org-1,org-2', per_page: 2 },
    ])
    held.resolve(null)
    await flushPromises()
    expect(orgs().map((e) => e.textContent?.trim())).toEqual(['Acme', 'Globex', 'Acme'])
    // a linked name is one element: the reference is its link
    expect(orgs()[1].matches('a.record-ref__link')).toBe(true)
    expect(orgs()[1].getAttribute('href')).toBe('/organizations/org-2')
    expect(batches(fake, 'organizations.list')).toHaveLength(1)
  })
})

describe('a record’s attributes', () => {
  it('names the records it refers to, says an empty reference in words, counts by severity', async () => {
    const r = router()
    mountWithApp(AttributeList, {
      props: {
        resource: resourceByKey('scans')!,
        attributes: {
          name: 'Weekly',
          // its last run completed: its findings are known (a running scan's are not yet)
          status: 'completed',
          target_ids: ['tgt-2', 'tgt-1'],
          scanner_id: null,
          credential_ids: [],
          schedule_id: 'sch-1',
          port_list_id: 'prt-404',
          severity_counts: { critical: 2, high: 0, medium: 1, low: 0, info: 0 },
        },
      },
      global: { plugins: [r] },
    })
    await flushPromises()
    expect(cell('target_ids').textContent?.trim()).toBe('Mail relay, Web shop')
    expect(cell('scanner_id').textContent?.trim()).toBe('No scanner')
    expect(cell('credential_ids').textContent?.trim()).toBe('No credential')
    expect(cell('schedule_id').textContent?.trim()).toBe('Nightly')
    // not in its batch, and its own read answers 404: deleted
    expect(cell('port_list_id').textContent?.trim()).toBe('prt-404 (deleted)')
    expect(
      (apiCalls(fake) as { op: string; input?: unknown }[])
        .filter((c) => c.op === 'port_lists.show')
        .map((c) => c.input),
    ).toEqual([{ path: { id: 'prt-404' } }])
    expect(cell('severity_counts').textContent).not.toContain('{')
    expect(cell('severity_counts').textContent).toContain('2 C')
    expect(batches(fake, 'targets.list')).toHaveLength(1)
    expect(batches(fake, 'schedules.list')).toHaveLength(1)
    expect(batches(fake, 'scanners.list')).toHaveLength(0)
  })

  it('shows a host it carries by name once, linked, without asking for it', async () => {
    const r = router()
    mountWithApp(AttributeList, {
      props: {
        resource: resourceByKey('vulnerabilities')!,
        attributes: { title: 'Open FTP', host_id: 'hst-7', host_ip: '192.0.2.7', port: 21 },
      },
      global: { plugins: [r] },
    })
    await flushPromises()
    const labels = [...document.querySelectorAll('.el-descriptions__label')].map((e) =>
      e.textContent?.trim(),
    )
    expect(labels.filter((l) => l === 'Host')).toHaveLength(1)
    expect(document.querySelector('[data-attr="host_id"]')).toBeNull()
    expect(cell('host_ip').querySelector('a')?.getAttribute('href')).toBe('/hosts/hst-7')
    expect(cell('host_ip').textContent?.trim()).toBe('192.0.2.7')
    expect(batches(fake, 'hosts.list')).toHaveLength(0)
  })
})

describe('a read carrying records whole', () => {
  it('shows each by its name, linked, once, without asking for it', async () => {
    const r = router()
    mountWithApp(AttributeList, {
      // an exception's "Vulnerability and host" read: ids, and the records themselves
      props: {
        attributes: {
          vulnerability_id: 'vul-3',
          host_id: 'hst-1',
          vulnerability: { id: 'vul-3', title: 'Old PHP', severity: 'critical' },
          host: { id: 'hst-1', ip: '192.0.2.11', hostname: null },
        },
      },
      global: { plugins: [r] },
    })
    await flushPromises()
    expect(document.querySelector('[data-attr="vulnerability_id"]')).toBeNull()
    expect(document.querySelector('[data-attr="host_id"]')).toBeNull()
    expect(cell('vulnerability').textContent?.trim()).toBe('Old PHP')
    expect(cell('vulnerability').querySelector('a')?.getAttribute('href')).toBe(
      '/vulnerabilities/vul-3',
    )
    expect(cell('host').textContent?.trim()).toBe('192.0.2.11')
    expect(document.body.textContent).not.toContain('{')
    expect(apiCalls(fake)).toEqual([])
  })
})

describe('a record page’s title', () => {
  const mountPage = () => {
    const r = router()
    mountWithApp(ConfirmHost, { global: { plugins: [r] } })
    mountWithApp(ResourceDetailView, {
      props: { resourceKey: 'hosts', id: 'hst-041' },
      global: { plugins: [r] },
    })
  }
  const title = () => byTestId('resource-title')[0].textContent?.trim()

  it('says the id is an id while the page reads, and its name once read', async () => {
    const held = deferred<unknown>()
    fake.handle('api.call', (p: Call) =>
      p.op === 'hosts.details'
        ? held.promise.then(() =>
            answer({ id: 'hst-041', type: 'host', attributes: { ip: '10.0.0.41' } }),
          )
        : new Fail({ code: 'NOT_FOUND', message: 'no' }),
    )
    mountPage()
    await flushPromises()
    expect(title()).toBe('Host hst-041')
    held.resolve(null)
    await flushPromises()
    expect(title()).toBe('10.0.0.41')
  })

  it('offline without a copy of the page, takes the name from the list in memory', async () => {
    fake.handle('api.call', (p: Call) =>
      p.op === 'hosts.list' ? listOf(p) : new Fail({ code: 'OFFLINE', message: 'Offline.' }),
    )
    mountComposable(() => useOperation('hosts.list', {}))
    await flushPromises()
    mountPage()
    await flushPromises()
    expect(title()).toBe('10.0.0.41')
  })

  it('offline with no name anywhere, says so next to the id', async () => {
    fake.handle('api.call', () => new Fail({ code: 'OFFLINE', message: 'Offline.' }))
    mountPage()
    await flushPromises()
    expect(title()).toBe('hst-041 (name not available offline)')
  })
})
