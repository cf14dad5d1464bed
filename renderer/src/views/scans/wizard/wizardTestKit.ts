// The scan wizard's unit tests' kit: a fake service answering the wizard's reads (per op id, each
// overridable), drafts kept in memory, the wizard mounted on a router, and steps driven as a user
// drives them.
import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach } from 'vitest'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { parseHostList } from '@contract/hosts'
import ConfirmHost from '@/components/kit/ConfirmHost.vue'
import { detailName, resourceByKey } from '@/resources'
import { apiCalls, withTwoAccounts } from '@/test/composables'
import { click, shown, theTestId, typeInto } from '@/test/dom'
import { serveDrafts, type StoredDrafts } from '@/test/fakeDrafts'
import { Fail, uninstallFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { mountWithApp } from '@/test/mountApp'
import type { StepKey, Values } from '@/composables/scanWizardSteps'
import ScanWizardView from './ScanWizardView.vue'

/** What a wizard test works with, fresh for each test (set in beforeEach and mountWizard). */
export const t = {} as { fake: FakeScandesk; stored: StoredDrafts; router: Router }
let mounted: { unmount: () => void }[] = []

/**
 * Keeps a wizard draft for acct-aaaa as if saved earlier: at `step`, each step's values the
 * defaults of a fresh wizard with `over` on top (what has a name and a profile).
 */
export function storeDraft(step: number, over: Partial<Record<StepKey, Values>> = {}): void {
  t.stored['acct-aaaa'] = {
    savedAt: '2030-01-01T09:00:00.000Z',
    data: {
      step,
      what: { name: 'Stored scan', description: '', scan_profile: 'full_and_fast', ...over.what },
      where: {
        target_mode: 'saved',
        target_ids: [],
        hosts: '',
        exclusions: '',
        port_list_id: '',
        ...over.where,
      },
      how: {
        scanner_mode: 'auto',
        scanner_id: '',
        cred_ssh: '',
        cred_smb: '',
        cred_snmp: '',
        ...over.how,
      },
      when: { start: 'none', frequency: 'weekly', start_at: '', time_zone: 'UTC', ...over.when },
    },
  }
}

/** Registers the fresh fake service, drafts and cleanup of each test of the calling file. */
export function useWizardTests(): void {
  beforeEach(() => {
    t.fake = withTwoAccounts()
    t.stored = serveDrafts(t.fake, {
      savedAt: (n) => `2030-01-01T10:00:${String(n % 60).padStart(2, '0')}.000Z`,
    })
  })
  afterEach(() => {
    for (const m of mounted) m.unmount()
    mounted = []
    uninstallFakeScandesk()
    document.body.innerHTML = ''
  })
}

export type Call = { op: string; input: { body?: Record<string, unknown>; path?: { id: string } } }
export type Answerer = (p: Call) => unknown
export const answer = (data: unknown) => ({
  data,
  fetchedAt: '2030-01-01T00:00:00Z',
  fromCache: false,
})
const list = (type: string, rows: [string, Record<string, unknown>][]) =>
  answer({
    data: rows.map(([id, attributes]) => ({ id, type, attributes })),
    meta: { pagination: { total_count: rows.length } },
  })
export const scan = (status: string) => ({
  data: {
    id: 'scn-77',
    type: 'scan',
    attributes: { name: 'Weekly perimeter', status, progress: 0, target_ids: ['tgt-1'] },
  },
})

/** The current user as user.show answers it, with the time zone of their profile. */
export const me = (timeZone: string) =>
  answer({
    data: {
      id: 'usr-1',
      type: 'user',
      attributes: { email: 'ada@example.com', time_zone: timeZone },
    },
  })

/** The time zone of the current user's profile in the default answers. */
export const PROFILE_ZONE = 'America/Sao_Paulo'

const DEFAULTS: Record<string, Answerer> = {
  'user.show': () => me(PROFILE_ZONE),
  'user.permissions': () =>
    answer({ data: { role: 'analyst', permissions: ['scans.read', 'scans.write'] } }),
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

export function serve(over: Record<string, Answerer> = {}): void {
  t.fake.handle('api.call', (p: Call) => {
    const handler = over[p.op] ?? DEFAULTS[p.op]
    return handler ? handler(p) : new Fail({ code: 'INTERNAL', message: `no answer for ${p.op}` })
  })
}

const READS = new Set(Object.keys(DEFAULTS).filter((op) => !/create|start/.test(op)))
/** Calls other than reads and calculations: the writes. */
export const writes = () => apiCalls(t.fake).filter((c) => !READS.has(c.op))
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
export const text = (id: string) => theTestId(id).textContent?.replace(/\s+/g, ' ').trim() ?? ''

export async function mountWizard() {
  const router = createRouter({
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
  t.router = router
  await router.push('/scans/new')
  mounted.push(mountWithApp(ConfirmHost, { global: { plugins: [router] } }))
  const wrapper = mountWithApp(ScanWizardView, { global: { plugins: [router] } })
  mounted.push(wrapper)
  await flushPromises()
  return wrapper
}

/** Clicks Next and waits for the step's check. */
export async function next(): Promise<void> {
  await click('scan-wizard-next')
  await sleep(20)
  await flushPromises()
}

/** Chooses an Element Plus radio by its test id. */
export async function choose(id: string): Promise<void> {
  theTestId(id).querySelector('input')!.click()
  await flushPromises()
}

export const onStep = (name: string) => shown(`wizard-${name}`)

/** The textarea of an Element Plus input of type textarea. */
export const areaOf = (id: string) =>
  document.querySelector<HTMLTextAreaElement>(`textarea[data-testid="${id}"]`)!

/** Types into a textarea and leaves it. */
export async function typeLines(id: string, value: string): Promise<void> {
  const el = areaOf(id)
  el.value = value
  el.dispatchEvent(new Event('input'))
  el.dispatchEvent(new FocusEvent('blur'))
  await flushPromises()
}

/** Fills step 1 with a name and the Full and fast profile. */
export async function fillWhat(): Promise<void> {
  await typeInto('wizard-name', 'Weekly perimeter')
  await choose('wizard-profile-full_and_fast')
}
