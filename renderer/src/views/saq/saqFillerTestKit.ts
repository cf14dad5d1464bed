// The SAQ filler's unit tests' kit: a fake service and drafts, a draft to start from, the filler
// mounted on its routes, and answers given as a user gives them.
import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach } from 'vitest'
import type { Router } from 'vue-router'
import { withTwoAccounts } from '@/test/composables'
import { serveDrafts, type StoredDrafts } from '@/test/fakeDrafts'
import { uninstallFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { mountRouted } from '@/test/routed'
import type { SaqDraft } from '@/composables/saqDraft'
import SaqFillView from './SaqFillView.vue'

/** What a filler test works with, fresh for each test (set in beforeEach and mountDraft). */
export const s = {} as { fake: FakeScandesk; stored: StoredDrafts; router: Router }
let mounted: { unmount: () => void }[] = []

export const answer = (data: unknown) => ({
  data,
  fetchedAt: '2030-01-01T00:00:00Z',
  fromCache: false,
})
/** What the screens around the filler read (the user's permissions, the organization). */
export const fallback = (op: string) =>
  op === 'user.permissions'
    ? answer({ data: { permissions: [] } })
    : answer({ data: { id: 'org-1', type: 'organization', attributes: { name: 'Acme' } } })

export function draft(extra: Partial<SaqDraft> = {}): SaqDraft {
  return {
    version: 1,
    saqId: null,
    name: 'Web shop SAQ A 2030',
    templateId: null,
    template: {
      typeId: 'sqt-001',
      code: 'A',
      name: 'SAQ A',
      template_version: '4.0.1',
      responses: [
        'in_place',
        'in_place_ccw',
        'in_place_remediation',
        'not_applicable',
        'not_in_place',
      ],
      sections: [
        {
          number: '2',
          title: 'Secure configuration',
          requirements: [
            {
              number: '2.2.1',
              title: 'Hardening standards',
              required: true,
              testing_methods: ['examine'],
            },
            { number: '2.2.2', title: 'Vendor defaults changed', required: true },
          ],
        },
        {
          number: '8',
          title: 'Authentication',
          requirements: [{ number: '8.3.1', title: 'Strong authentication', required: true }],
        },
      ],
    },
    answers: {},
    summary: {},
    attestation: {},
    current: null,
    ...extra,
  }
}

/** Registers the fresh fake service, drafts and cleanup of each test of the calling file. */
export function useSaqFillerTests(): void {
  beforeEach(() => {
    s.fake = withTwoAccounts()
    s.stored = serveDrafts(s.fake, {
      savedAt: (n) => `2030-01-01T10:00:${String(n % 60).padStart(2, '0')}.000Z`,
    })
    s.fake.handle('drafts.delete', () => ({ deleted: true }))
    s.fake.handle('saq.evidence.list', () => [])
    s.fake.handle('saq.evidence.link', () => ({ linked: 0 }))
    s.fake.handle('files.getFolder', () => ({ folder: '/home/dana/ScanDesk' }))
    s.fake.handle('api.call', (p: { op: string }) => fallback(p.op))
  })
  afterEach(() => {
    for (const m of mounted) m.unmount()
    mounted = []
    uninstallFakeScandesk()
    document.body.innerHTML = ''
  })
}

export async function mountDraft(value: SaqDraft, path = '/saq/draft/local-abc') {
  s.stored['acct-aaaa'] = { data: value, savedAt: '2030-01-01T09:00:00.000Z' }
  const routed = await mountRouted(SaqFillView, {
    path,
    props: { draftKey: path.split('/').pop()! },
    routes: [
      {
        path: '/saq/draft/:key',
        component: SaqFillView,
        props: (r) => ({ draftKey: String(r.params.key) }),
      },
      { path: '/saq/:id', component: SaqFillView, props: (r) => ({ id: String(r.params.id) }) },
    ],
  })
  s.router = routed.router
  mounted.push(routed)
  return routed.wrapper
}

export const savedDraft = () => s.stored['acct-aaaa']?.data as SaqDraft
export const row = (n: string) =>
  document.querySelector<HTMLElement>(`[data-testid="saq-requirement"][data-number="${n}"]`)!
export async function choose(n: string, response: string): Promise<void> {
  row(n).querySelector<HTMLInputElement>(`[data-testid="saq-answer-${response}"]`)!.click()
  await flushPromises()
}
export async function typeIn(
  el: HTMLTextAreaElement | HTMLInputElement,
  value: string,
): Promise<void> {
  el.value = value
  el.dispatchEvent(new Event('input'))
  await flushPromises()
}
export const text = (el: Element | null) => el?.textContent?.replace(/\s+/g, ' ').trim() ?? ''
