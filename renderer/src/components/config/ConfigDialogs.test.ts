import { flushPromises } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import { resourceByKey } from '@/resources'
import { apiCalls, mountScreen, useTwoAccounts } from '@/test/composables'
import { byTestId, click, submitWith, theTestId } from '@/test/dom'
import { answer, serveAnalyst, type ApiAnswers, type ApiCall } from '@/test/fakeApi'
import { deferred, Fail } from '@/test/fakeScandesk'
import { account, portListRecord } from '@/test/fixtures'
import ResourceDetailView from '@/views/resources/ResourceDetailView.vue'
import ResourceListView from '@/views/resources/ResourceListView.vue'
import PortListSyncDialog from './PortListSyncDialog.vue'
import ScannerVerifyDialog from './ScannerVerifyDialog.vue'

type Call = ApiCall
const scanner = (over: Record<string, unknown> = {}) => ({
  id: 'scr-1',
  type: 'scanner',
  attributes: {
    name: 'DMZ scanner',
    host: 'scanner-dmz.example.com',
    port: 9390,
    app_type: 'internal_scan',
    activated: false,
    verification_status: 'unverified',
    ...over,
  },
})
const portList = portListRecord

const serve = (over: ApiAnswers = {}): void =>
  serveAnalyst(fake, { 'scanners.show': () => answer(scanner()) }, over)

const fake = useTwoAccounts(() => {
  serve()
})

const sent = (op: string) => apiCalls(fake).filter((c) => c.op === op) as Call[]
const text = (id: string) => theTestId(id).textContent?.replace(/\s+/g, ' ').trim() ?? ''
const verified = () =>
  answer(
    scanner({
      verification_status: 'verified',
      verification_message: 'Scanner answered and is up to date',
      version: '9.4.2',
      last_verified_at: '2030-01-01T10:00:00Z',
    }),
  )

function mountVerify() {
  return mountScreen(ScannerVerifyDialog, {
    props: { resource: resourceByKey('scanners')!, row: scanner(), modelValue: true },
  })
}

describe('verifying a scanner', () => {
  it('shows progress while the service checks, then what it answered', async () => {
    const later = deferred<unknown>()
    serve({ 'scanners.verify': () => later.promise })
    mountVerify()
    await flushPromises()
    expect(byTestId('run-progress')).toHaveLength(1)
    expect(sent('scanners.verify').map((c) => c.input)).toEqual([{ path: { id: 'scr-1' } }])
    later.resolve(verified())
    await flushPromises()
    expect(byTestId('run-progress')).toHaveLength(0)
    expect(text('verify-outcome')).toContain('The scanner is reachable')
    expect(text('verify-reachable')).toBe('Yes')
    expect(text('verify-version')).toBe('9.4.2')
    expect(text('verify-message')).toBe('Scanner answered and is up to date')
  })

  it('shows an unreachable scanner with the service’s reason', async () => {
    serve({
      'scanners.verify': () =>
        answer(
          scanner({
            host: 'gone.invalid',
            verification_status: 'failed',
            verification_message: 'Could not reach gone.invalid:9390 (connection timed out)',
          }),
        ),
    })
    mountVerify()
    await flushPromises()
    expect(text('verify-outcome')).toContain('could not be verified')
    expect(text('verify-reachable')).toBe('No')
    expect(text('verify-message')).toBe('Could not reach gone.invalid:9390 (connection timed out)')
  })

  it('shows a refused verification with its message and tries again on request', async () => {
    let first = true
    serve({
      'scanners.verify': () => {
        if (!first) return verified()
        first = false
        return new Fail({ code: 'OFFLINE', message: 'The service cannot be reached.' })
      },
    })
    mountVerify()
    await flushPromises()
    expect(text('run-error')).toContain('The service cannot be reached.')
    await click('run-retry')
    expect(byTestId('run-error')).toHaveLength(0)
    expect(text('verify-reachable')).toBe('Yes')
    expect(sent('scanners.verify')).toHaveLength(2)
  })

  it('is the Verify action of a scanner’s page', async () => {
    serve({ 'scanners.verify': verified })
    mountScreen(ResourceDetailView, { props: { resourceKey: 'scanners', id: 'scr-1' } })
    await flushPromises()
    document.querySelector<HTMLElement>('[data-op="scanners.verify"]')!.click()
    await vi.waitFor(() => expect(byTestId('verify-result')).toHaveLength(1), { timeout: 5000 })
    expect(sent('scanners.verify')).toHaveLength(1)
    expect(text('verify-version')).toBe('9.4.2')
  })
})

describe('assigning a scanner to an organization', () => {
  it('picks the organization from its list, never a typed id', async () => {
    serve({
      'organizations.list': () => ({
        data: {
          data: [
            { id: 'org-1', type: 'organization', attributes: { name: 'Acme' } },
            { id: 'org-2', type: 'organization', attributes: { name: 'Globex' } },
          ],
          meta: { pagination: { total_count: 2 } },
        },
        fetchedAt: '',
        fromCache: false,
      }),
      'scanners.assign_organization': () => answer(scanner()),
    })
    mountScreen(ResourceDetailView, { props: { resourceKey: 'scanners', id: 'scr-1' } })
    await flushPromises()
    document.querySelector<HTMLElement>('[data-op="scanners.assign_organization"]')!.click()
    await flushPromises()
    const picker = document.querySelector<HTMLElement>(
      '[data-field="organization_id"] [data-testid="resource-picker"]',
    )
    expect(picker).not.toBeNull()
    // The pick list asks for its choices when opened (ResourcePicker), not when drawn.
    expect(sent('organizations.list')).toHaveLength(0)
    document
      .querySelector<HTMLElement>('[data-field="organization_id"] .el-select__wrapper')!
      .click()
    await flushPromises()
    expect(sent('organizations.list')).toHaveLength(1)
    ;[...document.querySelectorAll<HTMLElement>('.el-select-dropdown__item')]
      .find((o) => o.textContent?.trim() === 'Globex')!
      .click()
    await flushPromises()
    await submitWith('operation-form-submit')
    expect(sent('scanners.assign_organization').map((c) => c.input)).toEqual([
      { path: { id: 'scr-1' }, body: { organization_id: 'org-2' } },
    ])
  })
})

describe('syncing a port list', () => {
  function mountSync() {
    return mountScreen(PortListSyncDialog, {
      props: { resource: resourceByKey('port_lists')!, row: portList(), modelValue: true },
    })
  }

  it('shows progress while it runs, then when it synced', async () => {
    const later = deferred<unknown>()
    serve({ 'port_lists.sync': () => later.promise })
    mountSync()
    await flushPromises()
    expect(byTestId('run-progress')).toHaveLength(1)
    expect(text('sync-close')).toBe('Close (keeps running)')
    later.resolve(answer(portList({ synced_at: '2030-01-01T10:00:00Z' })))
    await flushPromises()
    expect(text('sync-outcome')).toContain('Web servers is synced')
    expect(text('sync-ports')).toBe('1025')
  })

  it('is the Sync action of a port list’s page, asked first', async () => {
    serve({
      'port_lists.show': () => answer(portList({ ranges: [] })),
      'port_lists.sync': () => answer(portList({ synced_at: '2030-01-01T10:00:00Z' })),
    })
    mountScreen(ResourceDetailView, { props: { resourceKey: 'port_lists', id: 'prt-1' } })
    await flushPromises()
    // The panel's editor is loaded when the page first shows it.
    await vi.waitFor(() => expect(byTestId('range-editor')).toHaveLength(1), { timeout: 5000 })
    document.querySelector<HTMLElement>('[data-op="port_lists.sync"]')!.click()
    await flushPromises()
    expect(text('confirm-text')).toBe('Sync “Web servers”?')
    expect(sent('port_lists.sync')).toHaveLength(0)
    await click('confirm')
    await vi.waitFor(() => expect(byTestId('sync-outcome')).toHaveLength(1), { timeout: 5000 })
    expect(sent('port_lists.sync')).toHaveLength(1)
    expect(text('sync-outcome')).toContain('Web servers is synced')
  })

  it('shows a failed sync with the service’s message', async () => {
    serve({
      'port_lists.sync': () =>
        new Fail({ code: 'CONFLICT', status: 409, message: 'No scanner answered the sync.' }),
    })
    mountSync()
    await flushPromises()
    expect(text('run-error')).toContain('No scanner answered the sync.')
    expect(byTestId('sync-result')).toHaveLength(0)
  })
})

describe('releases', () => {
  it('offers credentials only where the release has them, asking nothing elsewhere', async () => {
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { release: '5.3.0' })],
      activeId: 'acct-aaaa',
    })
    mountScreen(ResourceListView, { props: { group: 'credentials' } })
    await flushPromises()
    expect(byTestId('not-in-release')).toHaveLength(1)
    expect(apiCalls(fake).some((c) => c.op.startsWith('credentials.'))).toBe(false)
  })
})
