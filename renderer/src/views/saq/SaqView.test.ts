import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { byTestId, click, theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { useRoutedScreen } from '@/test/routed'
import { browserAppInfo } from '@/test/fixtures'
import { useAppStore } from '@/stores/app'
import { useExportsStore } from '@/stores/exports'
import type { SaqDraft } from '@/composables/saqDraft'
import { SAQ_A_SECTIONS } from './saqFixtures'
import SaqView from './SaqView.vue'

interface Call {
  op: string
  input: { query?: Record<string, unknown>; path?: { id: string } }
}

const template: SaqDraft['template'] = {
  typeId: 'sqt-001',
  code: 'A',
  name: 'SAQ A',
  template_version: '4.0.1',
  sections: SAQ_A_SECTIONS,
}
const draft = (over: Partial<SaqDraft> = {}): SaqDraft => ({
  version: 1,
  saqId: null,
  name: 'Web shop 2030',
  template,
  answers: {
    '2.2.1': { requirement: '2.2.1', response: 'in_place' },
    '8.3.1': { requirement: '8.3.1', response: 'in_place' },
  },
  summary: {},
  attestation: {},
  current: null,
  ...over,
})

let stored: Record<string, { data: unknown; savedAt: string }> = {}
const saqRow = (id: string, name: string, status: 'draft' | 'approved') => ({
  id,
  type: 'saq',
  attributes: {
    name,
    saq_type: 'A',
    status,
    is_template: false,
    compliance: status === 'approved' ? 'compliant' : null,
    approved_at: status === 'approved' ? '2030-01-02T10:00:00Z' : null,
    updated_at: '2030-01-02T10:00:00Z',
  },
})
const listOf = (rows: unknown[]) => ({
  data: { data: rows, meta: { pagination: { total_count: rows.length } } },
  fetchedAt: '2030-01-03T00:00:00Z',
  fromCache: false,
})

const fake = useFakeApp({
  setup: (fake) => {
    stored = {}
    fake.handle('api.cancel', () => ({ cancelled: true }))
    fake.handle('files.getFolder', () => ({ folder: '/home/dana/ScanDesk' }))
    fake.handle('drafts.list', () =>
      Object.entries(stored).map(([key, v]) => ({ kind: 'saq', key, savedAt: v.savedAt })),
    )
    fake.handle('drafts.get', (p: { key: string }) =>
      stored[p.key] ? { kind: 'saq', key: p.key, ...stored[p.key] } : null,
    )
    fake.handle('drafts.delete', (p: { key: string }) => {
      const deleted = p.key in stored
      delete stored[p.key]
      return { deleted }
    })
    fake.handle('api.call', (p: Call) => {
      if (p.op === 'saq.list' && p.input.query?.status === 'approved')
        return listOf([
          saqRow('saq-003', 'Web shop 2029', 'approved'),
          saqRow('saq-004', 'POS 2029', 'approved'),
        ])
      if (p.op === 'saq.list')
        return listOf([
          saqRow('saq-001', 'Web shop 2030', 'draft'),
          saqRow('saq-003', 'Web shop 2029', 'approved'),
        ])
      return new Fail({ code: 'NOT_FOUND', message: `no ${p.op} here` })
    })
  },
})

const screen = useRoutedScreen(SaqView, {
  path: '/saq',
  routes: [
    { path: '/saq', name: 'saq', component: SaqView },
    { path: '/saq/:id', name: 'saq-detail', component: { render: () => null } },
  ],
})
const mountView = () => screen.mount()
const text = (el: Element) => el.textContent?.replace(/\s+/g, ' ').trim() ?? ''
const inRow = (row: HTMLElement, id: string) =>
  row.querySelector<HTMLElement>(`[data-testid="${id}"]`)!

describe('the questionnaires page', () => {
  it('says plainly when no questionnaire is being filled on this computer', async () => {
    await mountView()
    expect(text(theTestId('saq-drafts-empty'))).toContain('No questionnaire is being filled')
    expect(byTestId('saq-draft-row')).toHaveLength(0)
  })

  it('lists the drafts with their progress, state and save time, newest first', async () => {
    stored['local-aaa'] = { data: draft(), savedAt: '2030-01-01T09:00:00Z' }
    stored['saq-009'] = {
      data: draft({ saqId: 'saq-009', name: 'POS 2030', answers: {} }),
      savedAt: '2030-01-02T09:00:00Z',
    }
    stored['broken'] = { data: { version: 9 }, savedAt: '2030-01-03T09:00:00Z' }
    await mountView()
    const rows = byTestId('saq-draft-row')
    expect(rows.map((r) => r.dataset.key)).toEqual(['saq-009', 'local-aaa'])
    expect(text(inRow(rows[1], 'saq-draft-name'))).toBe('Web shop 2030')
    expect(text(rows[1])).toContain('SAQ A')
    expect(text(inRow(rows[1], 'saq-draft-progress'))).toContain('2 / 3 required answered')
    expect(text(inRow(rows[1], 'saq-draft-state'))).toBe('Not submitted')
    expect(text(inRow(rows[0], 'saq-draft-state'))).toBe('Submitted, being revised')
    expect(text(inRow(rows[0], 'saq-draft-progress'))).toContain('0 / 3 required answered')
    expect(text(inRow(rows[1], 'saq-draft-saved'))).toMatch(/^saved .+/)
  })

  it('opens a local draft by its key and a submitted one by its id', async () => {
    stored['local-aaa'] = { data: draft(), savedAt: '2030-01-01T09:00:00Z' }
    stored['saq-009'] = { data: draft({ saqId: 'saq-009' }), savedAt: '2030-01-02T09:00:00Z' }
    await mountView()
    // the name is a link to the same place as Open (issue 36)
    const names = byTestId('saq-draft-row').map((r) => inRow(r, 'saq-draft-name'))
    expect(names.map((n) => [n.tagName, n.getAttribute('href')])).toEqual([
      ['A', '/saq/saq-009'],
      ['A', '/saq/draft/local-aaa'],
    ])
    inRow(byTestId('saq-draft-row')[1], 'saq-draft-open').click()
    await flushPromises()
    expect(screen.router.currentRoute.value.fullPath).toBe('/saq/draft/local-aaa')
    await screen.router.push('/saq')
    await flushPromises()
    inRow(byTestId('saq-draft-row')[0], 'saq-draft-open').click()
    await flushPromises()
    expect(screen.router.currentRoute.value.fullPath).toBe('/saq/saq-009')
  })

  it('discards a draft only after a confirmation naming it', async () => {
    stored['local-aaa'] = { data: draft(), savedAt: '2030-01-01T09:00:00Z' }
    await mountView()
    inRow(byTestId('saq-draft-row')[0], 'saq-draft-discard').click()
    await flushPromises()
    expect(text(theTestId('saq-discard-confirm-text'))).toBe('Discard the draft “Web shop 2030”?')
    expect(fake.calls.some((c) => c.channel === 'drafts.delete')).toBe(false)
    await click('saq-discard-confirm')
    expect(fake.calls.find((c) => c.channel === 'drafts.delete')?.payload).toEqual({
      accountId: 'acct-aaaa',
      kind: 'saq',
      key: 'local-aaa',
    })
    expect(byTestId('saq-draft-row')).toHaveLength(0)
    expect(byTestId('saq-drafts-empty')).toHaveLength(1)
  })

  it('shows the service’s questionnaires and opens one in the filler', async () => {
    await mountView()
    expect(byTestId('resource-row').map((r) => r.dataset.id)).toEqual(['saq-001', 'saq-003'])
    byTestId('resource-open')[0].click()
    await flushPromises()
    expect(screen.router.currentRoute.value.fullPath).toBe('/saq/saq-001')
  })

  it('goes to the start screen', async () => {
    await mountView()
    await click('saq-new')
    expect(screen.router.currentRoute.value.fullPath).toBe('/saq/new')
  })
})

describe('the audit bundle', () => {
  it('sends the chosen approved questionnaires and shows the folder it made', async () => {
    fake.handle('saq.auditBundle', (p: { saqIds: string[] }) => ({
      folder: '/home/dana/ScanDesk/Acme/SAQ/Audit 2030-01-03 1000',
      manifest: '/home/dana/ScanDesk/Acme/SAQ/Audit 2030-01-03 1000/manifest.json',
      files: p.saqIds.map((id) => ({
        path: `${id}.pdf`,
        size: 10,
        sha256: 'ab',
        saqId: id,
        kind: 'saq',
        attachedAt: null,
        afterApproval: null,
      })),
    }))
    await mountView()
    await click('saq-audit')
    const call = fake.calls
      .filter((c) => c.channel === 'api.call')
      .map((c) => c.payload as Call)
      .find((c) => c.op === 'saq.list' && c.input.query?.status === 'approved')
    expect(call?.input.query).toMatchObject({ status: 'approved', per_page: 100 })
    const items = byTestId('saq-audit-item')
    expect(items.map((i) => i.dataset.id)).toEqual(['saq-003', 'saq-004'])
    expect(text(items[0])).toContain('Web shop 2029')
    expect(theTestId<HTMLButtonElement>('saq-audit-create').disabled).toBe(true)

    items[1].querySelector('input')!.click()
    await flushPromises()
    await click('saq-audit-create')
    expect(fake.calls.find((c) => c.channel === 'saq.auditBundle')?.payload).toEqual({
      accountId: 'acct-aaaa',
      saqIds: ['saq-004'],
    })
    expect(text(theTestId('saq-audit-folder'))).toBe(
      '/home/dana/ScanDesk/Acme/SAQ/Audit 2030-01-03 1000',
    )
    expect(text(theTestId('saq-audit-count'))).toBe('1 file')
    expect(text(theTestId('saq-audit-manifest'))).toContain('manifest.json')
    expect(byTestId('saq-audit-create')).toHaveLength(0)
    expect(byTestId('saq-audit-late')).toHaveLength(0)
    await click('saq-audit-close')
    await click('saq-audit')
    expect(byTestId('saq-audit-result')).toHaveLength(0)
  })

  it('names the evidence added after approval, which the manifest flags', async () => {
    const evidence = (path: string, afterApproval: boolean | null) => ({
      path,
      size: 3,
      sha256: 'cd',
      saqId: 'saq-003',
      kind: 'saq_evidence' as const,
      attachedAt: '2030-01-02T09:00:00.000Z',
      afterApproval,
    })
    fake.handle('saq.auditBundle', () => ({
      folder: '/home/dana/ScanDesk/Acme/SAQ/Audit 2030-01-03 1000',
      manifest: '/home/dana/ScanDesk/Acme/SAQ/Audit 2030-01-03 1000/manifest.json',
      files: [
        evidence('saq-003 - Web shop/Evidence/8.3.1/<b>late</b>.txt', true),
        evidence('saq-003 - Web shop/Evidence/1.2.1/on-time.txt', false),
      ],
    }))
    await mountView()
    await click('saq-audit')
    theTestId('saq-audit-all').querySelector('input')!.click()
    await flushPromises()
    await click('saq-audit-create')
    expect(text(theTestId('saq-audit-late'))).toContain(
      '1 evidence file was added after its questionnaire was approved.',
    )
    const files = byTestId('saq-audit-late-file')
    expect(files.map((f) => text(f))).toEqual([
      expect.stringContaining('saq-003 - Web shop/Evidence/8.3.1/<b>late</b>.txt'),
    ])
    // a file name is text, never markup
    expect(files[0].querySelector('b')).toBeNull()
  })

  it('without a download folder asks for one in place before making anything (issue 36)', async () => {
    fake.handle('app.info', browserAppInfo)
    await useAppStore().load()
    let folder: string | null = null
    fake.handle('files.getFolder', () => ({ folder }))
    fake.handle('files.setFolder', (p: { folder: string }) => ({ folder: (folder = p.folder) }))
    fake.handle('saq.auditBundle', () => ({
      folder: '/f',
      manifest: '/f/manifest.json',
      files: [],
    }))
    await mountView()
    await click('saq-audit')
    byTestId('saq-audit-item')[0].querySelector('input')!.click()
    await flushPromises()
    await click('saq-audit-create')
    expect(useExportsStore().folderRequest?.purpose).toBe('The audit folder is made inside it.')
    expect(fake.calls.some((c) => c.channel === 'saq.auditBundle')).toBe(false)
    await useExportsStore().saveFolder('/home/dana/ScanDesk')
    await flushPromises()
    expect(fake.calls.filter((c) => c.channel === 'saq.auditBundle')).toHaveLength(1)
  })

  it('selects all, and says plainly which file failed its check', async () => {
    fake.handle(
      'saq.auditBundle',
      () =>
        new Fail({
          code: 'INTEGRITY_FAILED',
          message: 'The evidence file firewall.png (requirement 1.2.1 of “Web shop 2029”) changed.',
        }),
    )
    await mountView()
    await click('saq-audit')
    theTestId('saq-audit-all').querySelector('input')!.click()
    await flushPromises()
    await click('saq-audit-create')
    expect(
      (fake.calls.find((c) => c.channel === 'saq.auditBundle')?.payload as { saqIds: string[] })
        .saqIds,
    ).toEqual(['saq-003', 'saq-004'])
    expect(text(theTestId('saq-audit-error'))).toContain('firewall.png')
    expect(byTestId('saq-audit-result')).toHaveLength(0)
  })

  it('asks for the audit events of the period when ticked, names their file, and says why one has none', async () => {
    fake.handle('saq.auditBundle', (p: { saqIds: string[]; auditEvents?: boolean }) => ({
      folder: '/home/dana/ScanDesk/Acme/SAQ/Audit 2030-01-03 1000',
      manifest: '/home/dana/ScanDesk/Acme/SAQ/Audit 2030-01-03 1000/manifest.json',
      files: p.auditEvents
        ? [
            {
              path: 'saq-003 - Web shop/audit-events.jsonl',
              size: 10,
              sha256: 'ef',
              saqId: 'saq-003',
              kind: 'audit_events',
              attachedAt: null,
              afterApproval: null,
            },
          ]
        : [],
      ...(p.auditEvents
        ? {
            auditEvents: [
              {
                saqId: 'saq-003',
                saqName: 'Web shop',
                path: 'saq-003 - Web shop/audit-events.jsonl',
                events: 4,
                from: '2030-01-01T00:00:00.000Z',
                to: '2030-01-02T00:00:00.002Z',
                ends: 'approval',
                approvalEvent: 'aud-9',
                note: null,
              },
              {
                saqId: 'saq-004',
                saqName: 'Stores 2029',
                path: null,
                events: 0,
                from: '2029-01-01T00:00:00.000Z',
                to: '2029-01-02T00:00:00.000Z',
                ends: 'approval',
                approvalEvent: null,
                note: 'The account’s audit log begins on 2029-11-01, after this period ended.',
              },
            ],
          }
        : {}),
    }))
    await mountView()
    await click('saq-audit')
    byTestId('saq-audit-item')[0].querySelector('input')!.click()
    theTestId('saq-audit-events').querySelector('input')!.click()
    await flushPromises()
    await click('saq-audit-create')
    expect(fake.calls.find((c) => c.channel === 'saq.auditBundle')?.payload).toEqual({
      accountId: 'acct-aaaa',
      saqIds: ['saq-003'],
      auditEvents: true,
    })
    const items = byTestId('saq-audit-events-item').map((e) => text(e))
    expect(items[0]).toBe('saq-003 - Web shop/audit-events.jsonl 4 events, to its approval')
    expect(items[1]).toBe(
      'Stores 2029: no fileThe account’s audit log begins on 2029-11-01, after this period ended.',
    )
    // the next opening starts without it
    await click('saq-audit-close')
    await click('saq-audit')
    expect(theTestId('saq-audit-events').querySelector('input')!.checked).toBe(false)
  })
})
