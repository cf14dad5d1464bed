// Issue 36 §16: attaching a report without a download folder asks for the folder in place, before
// the service is asked for anything, and goes on once one is chosen; cancelled, nothing happens.
// §18: "Download PDF" says the file is saved once it is, never that it is on its way.
import { flushPromises } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ExportJob } from '@contract/files'
import { useAppStore } from '@/stores/app'
import { useExportsStore } from '@/stores/exports'
import { browserAppInfo, exportJob } from '@/test/fixtures'
import { theTestId } from '@/test/dom'
import { mountComposable } from '@/test/composables'
import { pdfOutcome, useSaqFiles } from '@/composables/saq'
import { pciAnswer, pciWorld } from './pciWorld'
import { draft, fallback, mountDraft, row, s, useSaqFillerTests } from './saqFillerTestKit'

useSaqFillerTests()
const world = pciWorld()
let folder: string | null
beforeEach(() => {
  folder = null
  s.fake.handle(
    'api.call',
    (p: Parameters<typeof pciAnswer>[1]) => pciAnswer(world, p) ?? fallback(p.op),
  )
  s.fake.handle('files.getFolder', () => ({ folder }))
  s.fake.handle('files.setFolder', (p: { folder?: string }) => ({
    folder: (folder = p.folder ?? null),
  }))
  s.fake.handle('saq.evidence.attachReport', () => ({ id: 'led-1' }))
  s.fake.handle('exports.list', () => [])
})
const calls = (channel: string) => s.fake.calls.filter((c) => c.channel === channel)

/** A draft with 11.3.2; its report picker opened and r-ext chosen. */
async function attachReport(): Promise<void> {
  const d = draft()
  d.template.sections.push({
    number: '11',
    title: 'Regular testing',
    requirements: [{ number: '11.3.2', title: 'External scans', required: true }],
  })
  d.current = '11.3.2'
  await mountDraft(d)
  row('11.3.2').querySelector<HTMLElement>('[data-testid="saq-pci-attach-report"]')!.click()
  await vi.waitFor(() =>
    expect(
      document.querySelector('[data-testid="saq-pci-report-option"][data-id="r-ext"]'),
    ).not.toBeNull(),
  )
  document
    .querySelector<HTMLElement>('[data-testid="saq-pci-report-option"][data-id="r-ext"]')!
    .click()
  for (let i = 0; i < 4; i++) await flushPromises()
}

describe('attaching evidence without a download folder', () => {
  it('browser mode: asks for the folder in place, then attaches; nothing is asked of the service first', async () => {
    s.fake.handle('app.info', browserAppInfo)
    await useAppStore().load()
    await attachReport()
    const exportsStore = useExportsStore()
    expect(exportsStore.folderRequest).toMatchObject({
      jobId: null,
      purpose: 'The evidence of 11.3.2 is kept in its SAQ folder, inside it.',
    })
    expect(calls('saq.evidence.attachReport')).toEqual([])
    await exportsStore.saveFolder('/home/dana/ScanDesk')
    for (let i = 0; i < 4; i++) await flushPromises()
    expect(calls('saq.evidence.attachReport')).toHaveLength(1)
    expect(calls('saq.evidence.attachReport')[0].payload).toMatchObject({
      requirement: '11.3.2',
      reportId: 'r-ext',
    })
  })

  it('browser mode: closing the folder dialog attaches nothing', async () => {
    s.fake.handle('app.info', browserAppInfo)
    await useAppStore().load()
    await attachReport()
    useExportsStore().cancelFolder()
    for (let i = 0; i < 4; i++) await flushPromises()
    expect(calls('saq.evidence.attachReport')).toEqual([])
    expect(theTestId('saq-pci-attach-report').closest('button')!.disabled).toBe(false)
  })

  it('Electron: main’s folder dialog is opened first, then the report attached', async () => {
    // no folder in the request: main opens the OS dialog, whose choice it answers
    s.fake.handle('files.setFolder', (p: { folder?: string }) => ({
      folder: (folder = p.folder ?? '/Users/dana/ScanDesk'),
    }))
    await attachReport()
    expect(calls('files.setFolder')[0].payload).toEqual({ accountId: 'acct-aaaa' })
    expect(calls('saq.evidence.attachReport')).toHaveLength(1)
  })
})

describe('downloading an approved SAQ’s PDF', () => {
  it('answers once the file is saved, with the job as it ended', async () => {
    folder = '/home/dana/ScanDesk'
    const job = (state: ExportJob['state'], extra: Partial<ExportJob> = {}) =>
      exportJob('acct-aaaa', { id: 'job-1', kind: 'saq', resourceId: 'saq-5', state, ...extra })
    s.fake.handle('exports.generate', () => job('generating'))
    s.fake.handle('exports.download', () =>
      job('downloading', { updatedAt: '2030-01-01T00:00:02.000Z' }),
    )
    const { result } = mountComposable(() => useSaqFiles())
    let answered: ExportJob | null = null
    void result.downloadPdf('saq-5').then((r) => (answered = r.ok ? r.data : null))
    await flushPromises()
    s.fake.emit('exports.changed', job('ready', { updatedAt: '2030-01-01T00:00:01.000Z' }))
    await flushPromises()
    expect(calls('exports.download')).toHaveLength(1)
    // downloading: not answered yet (the screen would say it is on its way)
    expect(answered).toBeNull()
    s.fake.emit(
      'exports.changed',
      job('verified', {
        path: '/home/dana/ScanDesk/SAQ/saq-5.pdf',
        updatedAt: '2030-01-01T00:00:03.000Z',
      }),
    )
    await flushPromises()
    expect(answered).toMatchObject({ state: 'verified', path: '/home/dana/ScanDesk/SAQ/saq-5.pdf' })
    expect(pdfOutcome({ ok: true, data: answered! })).toEqual({
      type: 'success',
      text: 'Saved /home/dana/ScanDesk/SAQ/saq-5.pdf; its SHA-256 is recorded.',
    })
  })
})
