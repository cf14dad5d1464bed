import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import type { AppError } from '@contract/errors'
import type { OutboxItem } from '@contract/offline'
import { resourceByKey } from '@/resources'
import { apiCalls, catchAllRouter, useTwoAccounts } from '@/test/composables'
import { byTestId } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'
import { connectivity, outboxItem } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import { isPendingFor } from '@/composables/pendingWrites'
import ConfirmHost from './ConfirmHost.vue'
import ResourceTable from './ResourceTable.vue'

let outbox: OutboxItem[]
let rows: { id: string; attributes: Record<string, unknown> }[]
/** The list's read fails so (a list never opened online, with "Work offline" on), or answers. */
let failure: AppError | null

const answer = (data: unknown) => ({ data: { data }, fetchedAt: '', fromCache: false })

const fake = useTwoAccounts(() => {
  outbox = []
  rows = []
  failure = null
  fake.handle('outbox.list', () => outbox)
  fake.handle('api.call', (p: { op: string }) => {
    if (p.op === 'user.permissions')
      return answer({
        role: 'analyst',
        permissions: ['scans.read', 'scans.write', 'targets.write'],
      })
    if (failure) return new Fail(failure)
    return {
      data: { data: rows, meta: { pagination: { total_count: rows.length } } },
      fetchedAt: '',
      fromCache: false,
    }
  })
})

async function mountTable(key: string) {
  const router = catchAllRouter()
  const host = mountWithApp(ConfirmHost, { global: { plugins: [router] } })
  const table = mountWithApp(ResourceTable, {
    props: { resource: resourceByKey(key)! },
    global: { plugins: [router] },
  })
  await flushPromises()
  return {
    unmount: () => {
      table.unmount()
      host.unmount()
    },
  }
}

/** The text of row `id`'s cell in column `key`. */
function cell(id: string, key: string): string {
  const tr = byTestId('resource-row')
    .find((r) => r.dataset.id === id)!
    .closest('tr')!
  return tr.querySelector(`[data-column="${key}"]`)?.textContent?.trim() ?? ''
}
const notification = (id: string, read: boolean) => ({
  id,
  attributes: { title: `Note ${id}`, level: 'info', kind: 'system', read, seen: read },
})

describe('a change kept in the outbox', () => {
  it('counts for its record, or for all with "mark all", until it is refused', () => {
    const ops = ['notifications.mark_read', 'notifications.mark_all_read']
    expect(isPendingFor([outboxItem('i-1', { target: 'ntf-1' })], ops, 'ntf-1')).toBe(true)
    expect(isPendingFor([outboxItem('i-1', { target: 'ntf-1' })], ops, 'ntf-2')).toBe(false)
    const all = outboxItem('i-2', { op: 'notifications.mark_all_read', target: null })
    expect(isPendingFor([all], ops, 'ntf-2')).toBe(true)
    expect(isPendingFor([{ ...all, state: 'sending' }], ops, 'ntf-2')).toBe(true)
    expect(isPendingFor([{ ...all, state: 'failed' }], ops, 'ntf-2')).toBe(false)
    expect(isPendingFor([all], ['notifications.mark_seen'], 'ntf-2')).toBe(false)
  })

  it('shows as pending in its row until it is sent, and is not offered twice', async () => {
    rows = [notification('ntf-1', false), notification('ntf-2', false), notification('ntf-3', true)]
    outbox = [outboxItem('item-0001', { op: 'notifications.mark_read', target: 'ntf-2' })]
    await mountTable('notifications')
    expect(cell('ntf-1', 'read')).toBe('No')
    expect(cell('ntf-2', 'read')).toBe('Read (pending)')
    expect(cell('ntf-3', 'read')).toBe('Yes')
    expect(cell('ntf-2', 'seen')).toBe('No')

    // "Mark read" is still offered on ntf-1, not again on ntf-2
    const actionsOf = async (id: string) => {
      const row = byTestId('resource-row').find((r) => r.dataset.id === id)!
      row.querySelector<HTMLElement>('[data-testid="row-actions"]')!.click()
      await flushPromises()
      const menu = document.getElementById(
        row.querySelector('[data-testid="row-actions"]')!.getAttribute('aria-controls') ?? '',
      )
      return [...(menu?.querySelectorAll('[data-op]') ?? [])].map((i) => i.getAttribute('data-op'))
    }
    expect(await actionsOf('ntf-1')).toEqual(['notifications.mark_read', 'notifications.mark_seen'])
    expect(await actionsOf('ntf-2')).toEqual(['notifications.mark_seen'])

    // main sent it: the row goes back to what the service says
    outbox = []
    rows = [notification('ntf-1', false), notification('ntf-2', true), notification('ntf-3', true)]
    const listsBefore = apiCalls(fake).filter((c) => c.op === 'notifications.list').length
    fake.emit('outbox.changed', { accountId: 'acct-aaaa', queued: 0, failed: 0 })
    await flushPromises()
    await flushPromises()
    expect(apiCalls(fake).filter((c) => c.op === 'notifications.list').length).toBe(listsBefore + 1)
    expect(cell('ntf-2', 'read')).toBe('Yes')
  })

  it('marks every unread row for "mark all read", and leaves a refused one as it was', async () => {
    rows = [notification('ntf-1', false), notification('ntf-3', true)]
    outbox = [outboxItem('item-0002', { op: 'notifications.mark_all_read', target: null })]
    await mountTable('notifications')
    expect(cell('ntf-1', 'read')).toBe('Read (pending)')
    expect(cell('ntf-3', 'read')).toBe('Yes')

    outbox = [{ ...outbox[0], state: 'failed' }]
    fake.emit('outbox.changed', { accountId: 'acct-aaaa', queued: 0, failed: 1 })
    await flushPromises()
    expect(cell('ntf-1', 'read')).toBe('No')
  })
})

describe('findings of a scan in the scans list', () => {
  const scanRow = (id: string, status: string) => ({
    id,
    attributes: {
      name: `Scan ${id}`,
      status,
      progress: status === 'completed' ? 100 : 3,
      severity_counts: { critical: 1, high: 2, medium: 0, low: 0, info: 0 },
    },
  })

  it('are not known while a run goes on or after one that did not finish', async () => {
    rows = [scanRow('scn-1', 'running'), scanRow('scn-2', 'completed'), scanRow('scn-3', 'stopped')]
    await mountTable('scans')
    expect(cell('scn-1', 'severity_counts')).toBe('Not known yet')
    expect(cell('scn-2', 'severity_counts')).toBe('1 C2 H')
    expect(cell('scn-3', 'severity_counts')).toBe('Not known (run stopped)')
    const unknown = document.querySelector<HTMLElement>('[data-cell-state="unknown"]')!
    expect(unknown.title).toBe('Not known yet: the run has not finished.')
  })
})

describe('writes of a list while the service is out of reach', () => {
  it('are disabled with the reason, while changes the outbox keeps stay offered', async () => {
    rows = [notification('ntf-1', false)]
    await mountTable('notifications')
    fake.emit('connectivity.mode', { workOffline: true, network: true })
    await flushPromises()
    const del = byTestId<HTMLButtonElement>('resource-delete')[0]
    expect(del.disabled).toBe(true)
    expect(del.closest('[data-reason]')?.getAttribute('data-reason')).toContain(
      '“Work offline” is on',
    )
    const markAll = byTestId<HTMLButtonElement>('toolbar-notifications.mark_all_read')[0]
    expect(markAll.disabled).toBe(false)
    expect(markAll.closest('[data-reason]')).toBeNull()
  })

  it('include creating with a form, but not opening the wizard, whose last step needs the service', async () => {
    const unreachable = connectivity('unreachable', { message: 'Connection refused.' })
    const create = () => byTestId<HTMLButtonElement>('resource-create')[0]
    rows = [{ id: 'tgt-9', attributes: { name: 'Nine', address: '10.0.0.9' } }]
    const targets = await mountTable('targets')
    expect(create().disabled).toBe(false)
    fake.emit('connectivity', unreachable)
    await flushPromises()
    expect(create().disabled).toBe(true)
    expect(create().closest('[data-reason]')?.getAttribute('data-reason')).toContain(
      'cannot be reached',
    )
    targets.unmount()
    // the scans list's New scan… opens the wizard: its own screen is not held back
    rows = [scanRowForCreate()]
    await mountTable('scans')
    await flushPromises()
    expect(create().disabled).toBe(false)
    expect(create().closest('[data-reason]')).toBeNull()
  })
})

function scanRowForCreate() {
  return { id: 'scn-9', attributes: { name: 'Nine', status: 'completed', progress: 100 } }
}

describe('a list never read', () => {
  it('says it is not known, and its total too, beside the reason (not "none", not 0)', async () => {
    failure = {
      code: 'OFFLINE',
      message: '“Work offline” is on: ScanDesk sends no request. This has not been opened …',
    }
    await mountTable('webhooks')
    expect(byTestId('resource-error')[0].textContent).toContain('“Work offline” is on')
    expect(byTestId('table-empty')[0].textContent?.trim()).toBe(
      'Not known: the webhooks could not be read.',
    )
    expect(byTestId('resource-total')[0].textContent?.trim()).toBe('Total not known')
    expect(document.body.textContent).not.toContain('No webhooks here')
    expect(document.body.textContent).not.toContain('Total 0')
  })

  it('says "none" and a total of 0 once the service answered an empty list', async () => {
    await mountTable('webhooks')
    expect(byTestId('table-empty')[0].textContent?.trim()).toBe('No webhooks here.')
    expect(byTestId('resource-total')[0].textContent?.trim()).toBe('Total 0')
  })
})
