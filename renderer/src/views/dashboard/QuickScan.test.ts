import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import ConfirmHost from '@/components/kit/ConfirmHost.vue'
import { QUICK_SCAN_DEBOUNCE_MS } from '@/composables/quickScan'
import { detailName, resourceByKey } from '@/resources'
import { useConfirmStore } from '@/stores/confirm'
import { apiCalls, useTwoAccounts } from '@/test/composables'
import { byTestId, click, errorUnder, inputOf, shown, theTestId, typeInto } from '@/test/dom'
import { deferred, Fail, invalid } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import QuickScan from './QuickScan.vue'

// Unmounted after each test, so no timer of one test asks the next test's fake.
let mounted: { unmount: () => void }[] = []
const fake = useTwoAccounts()
afterEach(() => {
  for (const wrapper of mounted) wrapper.unmount()
  mounted = []
})

type Call = { op: string; requestId?: string; input: { body?: Record<string, unknown> } }
type Answerer = (p: Call) => unknown

const answer = (data: unknown) => ({ data, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })
const scan = (id: string, name: string, status: string) => ({
  data: { id, type: 'scan', attributes: { name, status, progress: 0, target_ids: ['tgt-9'] } },
})
const DEFAULTS: Record<string, Answerer> = {
  'scans.scan_profiles': () =>
    answer({
      data: [
        {
          id: 'spr-1',
          type: 'scan_profile',
          attributes: { name: 'Host discovery', code: 'discovery', activated: true },
        },
        {
          id: 'spr-2',
          type: 'scan_profile',
          attributes: { name: 'Full and fast', code: 'full_and_fast', activated: true },
        },
      ],
      meta: { pagination: { total_count: 2 } },
    }),
  'user.organization': () =>
    answer({ data: { id: 'org-1', type: 'organization', attributes: { name: 'Acme' } } }),
  'targets.calculate_hosts': (p) =>
    answer({ data: { address: p.input.body?.address, hosts_count: 16 } }),
  'targets.create': (p) =>
    answer({ data: { id: 'tgt-9', type: 'target', attributes: { ...p.input.body } } }),
  'scans.create': (p) => answer(scan('scn-9', String(p.input.body?.name), 'queued')),
  'scans.start': () => answer(scan('scn-9', 'Quick scan 192.0.2.0/28', 'running')),
}

/** Answers api.call per operation: `over` first, then the defaults above. */
function serve(over: Record<string, Answerer> = {}): void {
  fake.handle('api.call', (p: Call) => {
    const handler = over[p.op] ?? DEFAULTS[p.op]
    return handler ? handler(p) : new Fail({ code: 'INTERNAL', message: `no answer for ${p.op}` })
  })
}

const sent = (op: string) => apiCalls(fake).filter((c) => c.op === op)
const writes = () =>
  apiCalls(fake).filter((c) => ['targets.create', 'scans.create', 'scans.start'].includes(c.op))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const text = (id: string) => theTestId(id).textContent?.replace(/\s+/g, ' ').trim() ?? ''

/** Types the way a person does: one value after another, `gap` ms apart, without leaving. */
async function typeSlowly(values: string[], gap = 60): Promise<void> {
  const input = inputOf('quick-scan-hosts')
  for (const value of values) {
    input.value = value
    input.dispatchEvent(new Event('input'))
    await sleep(gap)
  }
}

/** Waits past the debounce and lets the count land. */
async function countSettled(): Promise<void> {
  await sleep(QUICK_SCAN_DEBOUNCE_MS + 50)
  await flushPromises()
}

/** The quick scan as the dashboard hosts it: a router with the scan detail route and the shell's confirmation dialog. */
function mountQuickScan() {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      {
        path: '/scans/:id',
        name: detailName(resourceByKey('scans')!),
        component: { render: () => null },
      },
      { path: '/:rest(.*)*', name: 'any', component: { render: () => null } },
    ],
  })
  mounted.push(mountWithApp(ConfirmHost, { global: { plugins: [router] } }))
  const wrapper = mountWithApp(QuickScan, { global: { plugins: [router] } })
  mounted.push(wrapper)
  return wrapper
}

/** Clicks "Scan now" and answers the confirmation with its action button. */
async function scanNowConfirmed(): Promise<void> {
  await click('quick-scan-submit')
  await sleep(20)
  await flushPromises()
  expect(useConfirmStore().pending?.title).toBe('Scan now')
  await click('quick-scan-confirm')
  await sleep(20)
  await flushPromises()
}

describe('the quick scan field', () => {
  it('shows the target address schema’s message under the field and sends nothing', async () => {
    serve()
    mountQuickScan()
    await flushPromises()
    await typeInto('quick-scan-hosts', '10.0.0.1; rm -rf')
    expect(await errorUnder('quick-scan-hosts')).toBe(
      'Give one address, range or host name per entry; this one contains a semicolon.',
    )
    await countSettled()
    await click('quick-scan-submit')
    await sleep(20)
    await flushPromises()
    expect(sent('targets.calculate_hosts')).toHaveLength(0)
    expect(writes()).toHaveLength(0)
    expect(useConfirmStore().pending).toBeNull()
    expect(text('quick-scan-summary')).not.toContain('Creates target')
  })

  it('counts the hosts once typing stops, and says what Scan now will do', async () => {
    serve()
    mountQuickScan()
    await flushPromises()
    await typeSlowly(['192.0.2.0', '192.0.2.0/2', '192.0.2.0/28'])
    expect(sent('targets.calculate_hosts')).toHaveLength(0)
    expect(text('quick-scan-count')).toBe('Counting hosts…')
    await countSettled()
    expect(sent('targets.calculate_hosts').map((c) => c.input)).toEqual([
      { body: { address: '192.0.2.0/28' } },
    ])
    expect(text('quick-scan-count')).toBe('This covers 16 hosts.')
    expect(text('quick-scan-summary')).toBe(
      'Creates target “192.0.2.0/28”, creates a scan with the Full and fast profile on an automatically chosen scanner, and starts it now.',
    )
  })

  it('cancels a count nobody waits for and shows only the latest one', async () => {
    const first = deferred<unknown>()
    serve({
      'targets.calculate_hosts': (p) =>
        p.input.body?.address === '192.0.2.0/28'
          ? first.promise
          : answer({ data: { address: p.input.body?.address, hosts_count: 256 } }),
    })
    mountQuickScan()
    await flushPromises()
    await typeSlowly(['192.0.2.0/28'])
    await countSettled()
    const asked = sent('targets.calculate_hosts')[0]
    await typeSlowly(['192.0.2.0/24'])
    await flushPromises()
    expect(fake.calls.filter((c) => c.channel === 'api.cancel').map((c) => c.payload)).toEqual([
      { requestId: asked.requestId },
    ])
    first.resolve(answer({ data: { address: '192.0.2.0/28', hosts_count: 16 } }))
    await countSettled()
    expect(text('quick-scan-count')).toBe('This covers 256 hosts.')
  })

  it('puts the service’s reason a count is refused under the field only, and sends no write', async () => {
    serve({
      'targets.calculate_hosts': () =>
        invalid({ address: ['is not a valid IPv4 address'] }, 'The address could not be counted.'),
    })
    mountQuickScan()
    await flushPromises()
    await typeSlowly(['10.9.8.7'])
    await countSettled()
    expect(await errorUnder('quick-scan-hosts')).toBe('Hosts is not a valid IPv4 address')
    // Said once: the count line does not repeat the refusal.
    expect(shown('quick-scan-count')).toBe(false)
    await click('quick-scan-submit')
    await flushPromises()
    expect(useConfirmStore().pending).toBeNull()
    expect(writes()).toHaveLength(0)
    await typeSlowly(['192.0.2.1'])
    expect(await errorUnder('quick-scan-hosts')).toBe('')
  })

  it('says in the count line why a count failed when the address was not refused', async () => {
    serve({
      'targets.calculate_hosts': () =>
        new Fail({ code: 'TIMEOUT', message: 'The service did not answer in time.' }),
    })
    mountQuickScan()
    await flushPromises()
    await typeSlowly(['10.9.8.7'])
    await countSettled()
    expect(await errorUnder('quick-scan-hosts')).toBe('')
    expect(text('quick-scan-count')).toBe(
      'Hosts could not be counted: The service did not answer in time.',
    )
  })

  it('asks for no count on a release without calculate hosts, and says so', async () => {
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { release: '5.3.0' }), account('acct-bbbb')],
      activeId: 'acct-aaaa',
    })
    serve()
    mountQuickScan()
    await flushPromises()
    await typeSlowly(['192.0.2.0/28'])
    await countSettled()
    expect(sent('targets.calculate_hosts')).toHaveLength(0)
    expect(sent('scans.scan_profiles')).toHaveLength(0)
    expect(text('quick-scan-count')).toBe('Host count not available on this release.')
    // Without the profile list the service's usual default profile is named and sent.
    expect(text('quick-scan-summary')).toContain('with the Full and fast profile')
  })
})

describe('Scan now', () => {
  it('asks once, then creates the target, creates the scan and starts it, and links to it', async () => {
    serve()
    mountQuickScan()
    await flushPromises()
    await typeSlowly(['192.0.2.0/28'])
    await countSettled()
    await click('quick-scan-submit')
    await sleep(20)
    await flushPromises()
    expect(writes()).toHaveLength(0)
    expect(text('quick-scan-confirm-text')).toContain('Creates target “192.0.2.0/28”')
    expect(text('confirm-where')).toBe('Account: Account acct-aaaa · Organization: Acme')
    await click('quick-scan-confirm')
    await sleep(20)
    await flushPromises()

    expect(writes().map((c) => [c.op, c.input])).toEqual([
      ['targets.create', { body: { name: '192.0.2.0/28', address: '192.0.2.0/28' } }],
      [
        'scans.create',
        {
          body: {
            name: 'Quick scan 192.0.2.0/28',
            target_ids: ['tgt-9'],
            scan_profile: 'full_and_fast',
          },
        },
      ],
      ['scans.start', { path: { id: 'scn-9' } }],
    ])
    expect(text('quick-scan-result')).toContain('Scan started:')
    expect(text('quick-scan-result')).toContain('running')
    const link = theTestId<HTMLAnchorElement>('quick-scan-result-link')
    expect(link.textContent?.trim()).toBe('Quick scan 192.0.2.0/28')
    expect(link.getAttribute('href')).toBe('/scans/scn-9')
    expect(inputOf('quick-scan-hosts').value).toBe('')
  })

  it('waits for the service while “Work offline” is on: disabled with the reason, nothing asked', async () => {
    serve()
    mountQuickScan()
    await flushPromises()
    await typeSlowly(['192.0.2.0/28'])
    await countSettled()
    expect(theTestId<HTMLButtonElement>('quick-scan-submit').disabled).toBe(false)
    expect(byTestId('quick-scan-offline')).toHaveLength(0)

    fake.emit('connectivity.mode', { workOffline: true, network: true })
    await flushPromises()
    const button = theTestId<HTMLButtonElement>('quick-scan-submit')
    expect(button.disabled).toBe(true)
    expect(text('quick-scan-offline')).toBe(
      'This needs the service, and “Work offline” is on (top bar).',
    )
    button.click()
    inputOf('quick-scan-hosts').form?.requestSubmit()
    await sleep(20)
    await flushPromises()
    expect(useConfirmStore().pending).toBeNull()
    expect(writes()).toHaveLength(0)

    fake.emit('connectivity.mode', { workOffline: false, network: true })
    await flushPromises()
    expect(byTestId('quick-scan-offline')).toHaveLength(0)
    await scanNowConfirmed()
    expect(writes().map((c) => c.op)).toEqual(['targets.create', 'scans.create', 'scans.start'])
  })

  it('sends nothing when the confirmation is cancelled', async () => {
    serve()
    mountQuickScan()
    await flushPromises()
    await typeInto('quick-scan-hosts', 'scan.example.com')
    await click('quick-scan-submit')
    await sleep(20)
    await flushPromises()
    const cancel = [...document.querySelectorAll('button')].find(
      (b) => b.textContent?.trim() === 'Cancel',
    )!
    cancel.click()
    await flushPromises()
    expect(writes()).toHaveLength(0)
    expect(inputOf('quick-scan-hosts').value).toBe('scan.example.com')
  })

  it('says the target exists when the scan cannot be created, keeps the hosts, and does not create the target twice', async () => {
    serve({
      'scans.create': () =>
        new Fail({ code: 'SERVER', status: 500, message: 'The service failed.' }),
    })
    mountQuickScan()
    await flushPromises()
    await typeSlowly(['192.0.2.0/28'])
    await countSettled()
    await scanNowConfirmed()
    expect(text('quick-scan-error')).toBe(
      'The target “192.0.2.0/28” was created, but the scan could not be: The service failed.',
    )
    expect(sent('scans.start')).toHaveLength(0)
    expect(byTestId('quick-scan-result')).toHaveLength(0)
    expect(inputOf('quick-scan-hosts').value).toBe('192.0.2.0/28')
    expect(text('quick-scan-summary')).toContain('Uses the target “192.0.2.0/28” created before')

    serve()
    await scanNowConfirmed()
    expect(writes().map((c) => c.op)).toEqual([
      'targets.create',
      'scans.create',
      'scans.create',
      'scans.start',
    ])
    expect(sent('scans.create')[1].input).toMatchObject({ body: { target_ids: ['tgt-9'] } })
    expect(byTestId('quick-scan-error')).toHaveLength(0)
    expect(text('quick-scan-result')).toContain('Quick scan 192.0.2.0/28')
  })

  it('puts the service’s reason under the field when the target cannot be created', async () => {
    serve({
      'targets.create': () =>
        invalid({ address: ['is outside the licensed ranges'] }, 'The target could not be saved.'),
    })
    mountQuickScan()
    await flushPromises()
    await typeSlowly(['203.0.113.7'])
    await scanNowConfirmed()
    expect(await errorUnder('quick-scan-hosts')).toBe('Hosts is outside the licensed ranges')
    expect(sent('scans.create')).toHaveLength(0)
    expect(inputOf('quick-scan-hosts').value).toBe('203.0.113.7')
  })
})
