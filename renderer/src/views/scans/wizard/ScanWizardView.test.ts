import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { parseHostList } from '@contract/hosts'
import { SCHEDULE_DEBOUNCE_MS } from '@/components/scans/ScheduleEditor.vue'
import ConfirmHost from '@/components/kit/ConfirmHost.vue'
import { HOSTS_DEBOUNCE_MS, MAX_HOST_FILE_BYTES } from '@/composables/scanWizard'
import { detailName, resourceByKey } from '@/resources'
import { apiCalls, withTwoAccounts } from '@/test/composables'
import { byTestId, click, errorOfField, inputOf, shown, theTestId, typeInto } from '@/test/dom'
import { serveDrafts, type StoredDrafts } from '@/test/fakeDrafts'
import { Fail, type FakeScandesk } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import ScanWizardView from './ScanWizardView.vue'

let fake: FakeScandesk
let stored: StoredDrafts
let mounted: { unmount: () => void }[] = []
beforeEach(() => {
  fake = withTwoAccounts()
  stored = serveDrafts(fake, {
    savedAt: (n) => `2030-01-01T10:00:${String(n % 60).padStart(2, '0')}.000Z`,
  })
})
afterEach(() => {
  for (const m of mounted) m.unmount()
  mounted = []
  delete window.scandesk
  document.body.innerHTML = ''
})

type Call = { op: string; input: { body?: Record<string, unknown>; path?: { id: string } } }
type Answerer = (p: Call) => unknown
const answer = (data: unknown) => ({ data, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })
const list = (type: string, rows: [string, Record<string, unknown>][]) =>
  answer({
    data: rows.map(([id, attributes]) => ({ id, type, attributes })),
    meta: { pagination: { total_count: rows.length } },
  })
const scan = (status: string) => ({
  data: {
    id: 'scn-77',
    type: 'scan',
    attributes: { name: 'Weekly perimeter', status, progress: 0, target_ids: ['tgt-1'] },
  },
})

const DEFAULTS: Record<string, Answerer> = {
  'scans.scan_profiles': () =>
    list('scan_profile', [
      [
        'spr-1',
        {
          name: 'Full and fast',
          code: 'full_and_fast',
          description: 'Every check, safe checks only',
          activated: true,
          checks_count: 84210,
        },
      ],
      ['spr-2', { name: 'Host discovery', code: 'discovery', activated: true }],
      ['spr-3', { name: 'Full and very deep', code: 'full_deep', activated: false }],
    ]),
  'port_lists.activated': () =>
    list('port_list', [['pl-1', { name: 'All TCP', port_count: 65535, activated: true }]]),
  'scanners.activated': () =>
    list('scanner', [['scr-1', { name: 'Cloud EU', host: 'eu.example', activated: true }]]),
  'credentials.list': () =>
    list('credential', [
      ['crd-1', { name: 'Linux fleet', kind: 'ssh_password', username: 'scanner' }],
    ]),
  'targets.list': () => list('target', [['tgt-1', { name: 'DMZ', address: '192.0.2.0/24' }]]),
  // Counts as the service does (the shared host syntax).
  'targets.calculate_hosts': (p) =>
    answer({
      data: {
        address: p.input.body?.address,
        hosts_count: parseHostList([String(p.input.body?.address)]).count,
      },
    }),
  'user.organization': () =>
    answer({ data: { id: 'org-1', type: 'organization', attributes: { name: 'Acme' } } }),
  'schedules.first_schedule_date': () =>
    answer({
      data: {
        time_zone: 'Europe/Berlin',
        first: { at: '2030-03-25T08:00:00Z', local: '2030-03-25T09:00:00+01:00' },
      },
    }),
  'schedules.next_schedule_dates': () =>
    answer({
      data: {
        time_zone: 'Europe/Berlin',
        dates: [
          { at: '2030-03-25T08:00:00Z', local: '2030-03-25T09:00:00+01:00' },
          { at: '2030-04-01T07:00:00Z', local: '2030-04-01T09:00:00+02:00' },
        ],
      },
    }),
  'scans.create_from_wizard': () => answer(scan('scheduled')),
  'scans.start': () => answer(scan('running')),
}

function serve(over: Record<string, Answerer> = {}): void {
  fake.handle('api.call', (p: Call) => {
    const handler = over[p.op] ?? DEFAULTS[p.op]
    return handler ? handler(p) : new Fail({ code: 'INTERNAL', message: `no answer for ${p.op}` })
  })
}

const READS = new Set(Object.keys(DEFAULTS).filter((op) => !/create|start/.test(op)))
/** Calls other than reads and calculations: the writes. */
const writes = () => apiCalls(fake).filter((c) => !READS.has(c.op))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const text = (id: string) => theTestId(id).textContent?.replace(/\s+/g, ' ').trim() ?? ''

let router: Router
async function mountWizard() {
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/scans/new', name: 'scan-wizard', component: ScanWizardView },
      {
        path: '/scans/:id',
        name: detailName(resourceByKey('scans')!),
        component: { render: () => null },
      },
      { path: '/:rest(.*)*', name: 'any', component: { render: () => null } },
    ],
  })
  await router.push('/scans/new')
  mounted.push(mountWithApp(ConfirmHost, { global: { plugins: [router] } }))
  const wrapper = mountWithApp(ScanWizardView, { global: { plugins: [router] } })
  mounted.push(wrapper)
  await flushPromises()
  return wrapper
}

/** Clicks Next and waits for the step's check. */
async function next(): Promise<void> {
  await click('scan-wizard-next')
  await sleep(20)
  await flushPromises()
}

/** Chooses an Element Plus radio by its test id. */
async function choose(id: string): Promise<void> {
  theTestId(id).querySelector('input')!.click()
  await flushPromises()
}

const onStep = (name: string) => shown(`wizard-${name}`)

/** The textarea of an Element Plus input of type textarea. */
const areaOf = (id: string) =>
  document.querySelector<HTMLTextAreaElement>(`textarea[data-testid="${id}"]`)!

/** Types into a textarea and leaves it. */
async function typeLines(id: string, value: string): Promise<void> {
  const el = areaOf(id)
  el.value = value
  el.dispatchEvent(new Event('input'))
  el.dispatchEvent(new FocusEvent('blur'))
  await flushPromises()
}

/** Fills step 1 with a name and the Full and fast profile. */
async function fillWhat(): Promise<void> {
  await typeInto('wizard-name', 'Weekly perimeter')
  await choose('wizard-profile-full_and_fast')
}

describe('the scan wizard', () => {
  it('refuses an empty step with the caret on the first error, and sends nothing', async () => {
    serve()
    await mountWizard()
    expect(onStep('what')).toBe(true)
    await next()
    expect(onStep('what')).toBe(true)
    expect(await errorOfField('name')).toBe('Name is required')
    expect(await errorOfField('scan_profile')).toBe('Choose a scan profile.')
    expect(document.activeElement).toBe(inputOf('wizard-name'))
    // Only the activated profiles are offered, each with its purpose.
    expect(byTestId('wizard-profiles')[0].querySelectorAll('.el-radio')).toHaveLength(2)
    expect(text('wizard-profile-full_and_fast')).toContain('Every check, safe checks only')
    expect(writes()).toEqual([])
    expect(fake.calls.filter((c) => c.channel === 'drafts.save')).toHaveLength(0)
  })

  it('gives every refused host line its number and reason, and flags repeated lines', async () => {
    serve()
    await mountWizard()
    await fillWhat()
    await next()
    expect(onStep('where')).toBe(true)
    await typeLines('wizard-hosts', '192.0.2.1\nnot a host\n\n192.0.2.1\nx;y')
    await next()
    expect(onStep('where')).toBe(true)
    expect(await errorOfField('hosts')).toMatch(/^Line 2: /)
    const lines = [...theTestId('wizard-host-lines').querySelectorAll('li')].map((li) =>
      li.textContent?.replace(/\s+/g, ' ').trim(),
    )
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^Line 2 \(not a host\): \S/)
    expect(lines[1]).toBe('Line 4 (192.0.2.1): repeats line 1; left out.')
    expect(lines[2]).toMatch(/^Line 5 \(x;y\): \S/)
    expect(document.activeElement).toBe(areaOf('wizard-hosts'))
    expect(apiCalls(fake).filter((c) => c.op === 'targets.calculate_hosts')).toHaveLength(0)
    expect(writes()).toEqual([])
  })

  it('walks to Review with a weekly schedule, names account and organization, saves and starts', async () => {
    serve()
    await mountWizard()
    await fillWhat()
    await next()
    await typeLines('wizard-hosts', '192.0.2.0/28\nscan.example.com\n192.0.2.0/28')
    await typeLines('wizard-exclusions', '192.0.2.5')
    await sleep(HOSTS_DEBOUNCE_MS + 50)
    await flushPromises()
    expect(
      apiCalls(fake)
        .filter((c) => c.op === 'targets.calculate_hosts')
        .map((c) => c.input),
    ).toEqual([
      { body: { address: '192.0.2.1-192.0.2.4' } },
      { body: { address: '192.0.2.6-192.0.2.14' } },
      { body: { address: 'scan.example.com' } },
    ])
    expect(text('wizard-host-count')).toBe('These entries cover 14 hosts (counted by the service).')
    await next()
    expect(onStep('how')).toBe(true)
    await next()
    expect(onStep('when')).toBe(true)
    await choose('wizard-start-scheduled')
    const start = document.querySelector<HTMLInputElement>('[data-field="start_at"] input')!
    start.value = '2030-03-25 09:00'
    start.dispatchEvent(new Event('input'))
    start.dispatchEvent(new Event('change'))
    await flushPromises()
    await sleep(SCHEDULE_DEBOUNCE_MS + 50)
    await flushPromises()
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
    expect(text('schedule-summary')).toBe(`Every Monday at 09:00 ${zone}, from 25 March 2030`)
    expect(text('schedule-next')).toContain('Mon 1 Apr 2030, 09:00 (UTC+02:00)')
    expect(writes()).toEqual([])
    await next()
    expect(onStep('review')).toBe(true)
    await flushPromises()
    expect(text('wizard-review-where')).toBe(
      'The scan will be created in account Account acct-aaaa, organization Acme.',
    )
    expect(text('wizard-review-summary')).toContain(
      '3 new targets, covering 14 hosts: 192.0.2.1-192.0.2.4, 192.0.2.6-192.0.2.14, scan.example.com',
    )
    expect(writes()).toEqual([])
    expect(stored['acct-aaaa']).toBeDefined()

    await click('wizard-save-start')
    await vi.waitFor(() => expect(router.currentRoute.value.fullPath).toBe('/scans/scn-77'))
    expect(writes().map((c) => c.op)).toEqual(['scans.create_from_wizard', 'scans.start'])
    expect(writes()[0].input).toEqual({
      body: {
        name: 'Weekly perimeter',
        scan_profile: 'full_and_fast',
        new_targets: [
          { address: '192.0.2.1-192.0.2.4' },
          { address: '192.0.2.6-192.0.2.14' },
          { address: 'scan.example.com' },
        ],
        schedule: { frequency: 'weekly', start_at: '2030-03-25T09:00', time_zone: zone },
      },
    })
    expect(writes()[1].input).toEqual({ path: { id: 'scn-77' } })
    expect(router.currentRoute.value.fullPath).toBe('/scans/scn-77')
    expect(stored['acct-aaaa']).toBeUndefined()
    expect(fake.calls.filter((c) => c.channel === 'drafts.delete')).toHaveLength(1)
  })

  it('restores the draft when opened again, and Start over forgets it', async () => {
    serve()
    stored['acct-aaaa'] = {
      savedAt: '2030-01-01T09:00:00.000Z',
      data: {
        step: 2,
        what: { name: 'Restored scan', description: '', scan_profile: 'discovery' },
        where: {
          target_mode: 'saved',
          target_ids: ['tgt-1'],
          hosts: '',
          exclusions: '',
          port_list_id: 'pl-1',
        },
        how: { scanner_mode: 'auto', scanner_id: '', cred_ssh: '', cred_smb: '', cred_snmp: '' },
        when: { start: 'none', frequency: 'weekly', start_at: '', time_zone: 'UTC' },
      },
    }
    await mountWizard()
    expect(onStep('how')).toBe(true)
    await click('scan-wizard-back')
    await click('scan-wizard-back')
    expect(inputOf('wizard-name').value).toBe('Restored scan')
    await choose('wizard-profile-full_and_fast')
    await sleep(20)
    await flushPromises()
    expect(stored['acct-aaaa'].data).toMatchObject({
      step: 0,
      what: { name: 'Restored scan', scan_profile: 'full_and_fast' },
      where: { target_ids: ['tgt-1'] },
    })
    await click('scan-wizard-start-over')
    await flushPromises()
    expect(stored['acct-aaaa']).toBeUndefined()
    expect(inputOf('wizard-name').value).toBe('')
    expect(onStep('what')).toBe(true)
    expect(writes()).toEqual([])
  })

  it('keeps the draft when the service cannot be reached, and says why', async () => {
    serve({
      'scans.create_from_wizard': () =>
        new Fail({ code: 'OFFLINE', message: 'The service cannot be reached.' }),
    })
    stored['acct-aaaa'] = {
      savedAt: '2030-01-01T09:00:00.000Z',
      data: {
        step: 4,
        what: { name: 'Offline scan', description: '', scan_profile: 'full_and_fast' },
        where: {
          target_mode: 'saved',
          target_ids: ['tgt-1'],
          hosts: '',
          exclusions: '',
          port_list_id: '',
        },
        how: {
          scanner_mode: 'auto',
          scanner_id: '',
          cred_ssh: 'crd-1',
          cred_smb: '',
          cred_snmp: '',
        },
        when: { start: 'none', frequency: 'weekly', start_at: '', time_zone: 'UTC' },
      },
    }
    await mountWizard()
    expect(onStep('review')).toBe(true)
    await click('wizard-save')
    await vi.waitFor(() => expect(shown('wizard-submit-error')).toBe(true))
    expect(writes().map((c) => c.op)).toEqual(['scans.create_from_wizard'])
    expect(writes()[0].input).toEqual({
      body: {
        name: 'Offline scan',
        scan_profile: 'full_and_fast',
        target_ids: ['tgt-1'],
        credential_ids: ['crd-1'],
      },
    })
    expect(text('wizard-submit-error')).toBe('The service cannot be reached.')
    expect(stored['acct-aaaa']).toBeDefined()
    expect(router.currentRoute.value.fullPath).toBe('/scans/new')
    // with "Work offline" on, saving waits for the service and says so; the draft stays
    fake.emit('connectivity.mode', { workOffline: true, network: true })
    await flushPromises()
    expect(text('wizard-offline')).toContain('“Work offline” is on')
    expect(theTestId<HTMLButtonElement>('wizard-save').disabled).toBe(true)
    expect(theTestId<HTMLButtonElement>('wizard-save-start').disabled).toBe(true)
  })

  it('on release 5.3.0 offers a profile code and counts hosts on this computer, asking nothing', async () => {
    serve()
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { release: '5.3.0' })],
      activeId: 'acct-aaaa',
    })
    await flushPromises()
    await mountWizard()
    expect(text('wizard-profiles-unavailable')).toContain('This release cannot list scan profiles.')
    await typeInto('wizard-name', 'Old release scan')
    await typeInto('wizard-profile-code', 'full_and_fast')
    await next()
    expect(onStep('where')).toBe(true)
    await typeLines('wizard-hosts', '192.0.2.0/28\n192.0.2.8-192.0.2.20')
    await sleep(HOSTS_DEBOUNCE_MS + 50)
    await flushPromises()
    expect(text('wizard-host-count')).toBe(
      'These entries cover 20 hosts (counted on this computer: this release cannot count hosts).',
    )
    const ops = apiCalls(fake).map((c) => c.op)
    expect(ops).not.toContain('scans.scan_profiles')
    expect(ops).not.toContain('targets.calculate_hosts')
    expect(writes()).toEqual([])
  })

  it('imports hosts from a text file, and refuses a file over 1 MiB', async () => {
    serve()
    await mountWizard()
    await fillWhat()
    await next()
    await typeLines('wizard-hosts', '192.0.2.1')
    const input = theTestId<HTMLInputElement>('wizard-hosts-file')
    const pick = (file: File) => {
      Object.defineProperty(input, 'files', { value: [file], configurable: true })
      input.dispatchEvent(new Event('change'))
    }
    pick(new File(['192.0.2.2\r\nscan.example.com\n'], 'hosts.txt', { type: 'text/plain' }))
    await vi.waitFor(() => expect(areaOf('wizard-hosts').value).toContain('scan.example.com'))
    expect(areaOf('wizard-hosts').value).toBe('192.0.2.1\n192.0.2.2\r\nscan.example.com\n')
    pick(new File(['x'.repeat(MAX_HOST_FILE_BYTES + 1)], 'huge.txt', { type: 'text/plain' }))
    await flushPromises()
    expect(text('wizard-hosts-file-problem')).toBe(
      'huge.txt has 1,048,577 bytes; a host list file can have at most 1,048,576 (1 MiB).',
    )
    expect(areaOf('wizard-hosts').value).not.toContain('xxx')
    expect(writes()).toEqual([])
  })

  it('says how many distinct hosts are scanned when entries overlap', async () => {
    serve()
    await mountWizard()
    await fillWhat()
    await next()
    await typeLines('wizard-hosts', '192.0.2.0/28\n192.0.2.8-192.0.2.20')
    await sleep(HOSTS_DEBOUNCE_MS + 50)
    await flushPromises()
    expect(text('wizard-host-count')).toBe(
      'These entries cover 27 hosts (counted by the service); some entries overlap, so 20 distinct hosts are scanned.',
    )
  })
})
