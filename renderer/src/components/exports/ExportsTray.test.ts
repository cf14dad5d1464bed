import { flushPromises } from '@vue/test-utils'
import { byTestId } from '@/test/dom'
import { describe, expect, it, vi } from 'vitest'
import type { ExportJob } from '@contract/files'
import { useExportsStore } from '@/stores/exports'
import { catchAllRouter as router } from '@/test/composables'
import { useFakeApp } from '@/test/fakeApp'
import { browserAppInfo, exportJob } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import ExportsTrayButton from './ExportsTrayButton.vue'

let jobs: ExportJob[]

const fake = useFakeApp({
  setup: (fake) => {
    jobs = []
    fake.handle('exports.list', () => jobs)
  },
})

async function openTray() {
  const wrapper = mountWithApp(ExportsTrayButton, { global: { plugins: [router()] } })
  await flushPromises()
  await wrapper.find('[data-testid="exports-tray-button"]').trigger('click')
  await flushPromises()
  return wrapper
}

describe('the exports tray', () => {
  it('shows a running download with bytes, rate and time left', async () => {
    jobs = [
      exportJob('acct-aaaa', {
        state: 'downloading',
        progress: { bytes: 5_000_000, total: 20_000_000, bytesPerSecond: 2_500_000, etaMs: 6_000 },
      }),
    ]
    await openTray()
    const job = byTestId('export-job')[0]
    expect(job.dataset.state).toBe('downloading')
    const text = job.querySelector('[data-testid="export-progress-text"]')!.textContent!
    expect(text).toContain('5.0 MB of 20.0 MB')
    expect(text).toContain('2.5 MB/s')
    expect(text).toContain('6 s left')
    expect(job.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('25')
    expect(job.textContent).toContain('Cancel')
  })

  it('says an SAQ PDF had its hash recorded, a report that it was verified', async () => {
    jobs = [
      exportJob('acct-aaaa', { state: 'verified', kind: 'saq', resourceId: 'saq-1' }),
      exportJob('acct-aaaa', { state: 'verified' }),
    ]
    await openTray()
    const tags = byTestId('export-state').map((el) => el.textContent?.trim())
    expect(tags.sort()).toEqual(['Saved, hash recorded', 'Verified'])
  })

  it('shows a job stopped offline as waiting for the service, not as a failure', async () => {
    jobs = [
      exportJob('acct-aaaa', {
        state: 'failed',
        error: { code: 'OFFLINE', message: 'The service cannot be reached.' },
      }),
      exportJob('acct-aaaa', {
        state: 'failed',
        error: { code: 'INTERNAL', message: 'The report could not be made.' },
      }),
    ]
    await openTray()
    const [waiting, failed] = byTestId('export-job')
    const part = (job: HTMLElement, id: string) => job.querySelector(`[data-testid="${id}"]`)
    expect(part(waiting, 'export-state')?.textContent?.trim()).toBe('Waiting for the service')
    expect(part(waiting, 'export-waiting')?.textContent?.trim()).toBe(
      'Waiting for the service — will continue when online',
    )
    expect(part(waiting, 'export-error')).toBeNull()
    expect(part(waiting, 'export-retry-button')).toBeNull()
    expect(part(failed, 'export-state')?.textContent?.trim()).toBe('Failed')
    expect(part(failed, 'export-error')?.textContent?.trim()).toBe('The report could not be made.')
  })

  it('follows progress events as they arrive', async () => {
    const job = exportJob('acct-aaaa', { state: 'ready' })
    jobs = [job]
    await openTray()
    fake.emit('exports.changed', {
      ...job,
      state: 'downloading',
      updatedAt: '2030-01-01T00:00:01.000Z',
      progress: { bytes: 900, total: 1000, bytesPerSecond: 100, etaMs: 1000 },
    })
    await flushPromises()
    expect(byTestId('export-job')[0].dataset.state).toBe('downloading')
    expect(byTestId('export-progress-text')[0].textContent).toContain('900 B of 1.0 kB')
  })

  it('shows the plain message of a mismatch and retries with one click', async () => {
    const message =
      "The file on disk does not match the service's hash; it was moved to /home/me/Reports/Quarantine"
    const job = exportJob('acct-aaaa', {
      state: 'mismatch',
      error: { code: 'INTEGRITY_FAILED', message },
    })
    jobs = [job]
    fake.handle('exports.retry', () => ({ ...job, state: 'queued', error: null }))
    await openTray()
    const item = byTestId('export-job')[0]
    expect(item.dataset.state).toBe('mismatch')
    expect(item.querySelector('[data-testid="export-error"]')!.textContent!.trim()).toBe(message)
    ;(item.querySelector('[data-testid="export-retry-button"]') as HTMLElement).click()
    await flushPromises()
    expect(fake.calls.find((c) => c.channel === 'exports.retry')?.payload).toEqual({
      jobId: job.id,
    })
    expect(byTestId('export-job')[0].dataset.state).toBe('queued')
    expect(byTestId('export-error')).toHaveLength(0)
  })

  it('counts running jobs and jobs that need attention on the badge', async () => {
    jobs = [
      exportJob('acct-aaaa', { state: 'generating' }),
      exportJob('acct-aaaa', { state: 'ready' }),
      exportJob('acct-aaaa', { state: 'verified' }),
    ]
    const wrapper = mountWithApp(ExportsTrayButton, { global: { plugins: [router()] } })
    await flushPromises()
    expect(wrapper.element.parentElement?.querySelector('.el-badge__content')?.textContent).toBe(
      '2',
    )
    expect(useExportsStore().jobs).toHaveLength(3)
  })
})

describe('the folder dialog in browser mode', () => {
  /** A ready job of an account with no download folder yet: its Download clicked in the tray. */
  async function downloadWithoutFolder() {
    fake.handle('app.info', browserAppInfo)
    const job = exportJob('acct-aaaa', { state: 'ready' })
    jobs = [job]
    fake.handle('files.getFolder', () => ({ folder: null }))
    fake.handle('files.setFolder', (p: { folder: string }) => ({ folder: p.folder }))
    fake.handle('exports.download', () => ({ ...job, state: 'downloading' }))
    const { useAppStore } = await import('@/stores/app')
    await useAppStore().load()
    await openTray()
    byTestId('export-download-button')[0].click()
    return job
  }

  it('asks for an absolute folder, refuses a relative one, and downloads after saving', async () => {
    const job = await downloadWithoutFolder()
    await vi.waitFor(() => expect(byTestId('folder-dialog')).toHaveLength(1))

    const input = document.querySelector<HTMLInputElement>(
      '[data-testid="folder-input"] input, input[data-testid="folder-input"]',
    )!
    input.value = 'Reports'
    input.dispatchEvent(new Event('input'))
    byTestId('folder-save')[0].click()
    await flushPromises()
    expect(byTestId('folder-problem')[0].textContent).toContain('must be an absolute path')
    expect(fake.calls.some((c) => c.channel === 'files.setFolder')).toBe(false)

    input.value = '/home/me/Reports'
    input.dispatchEvent(new Event('input'))
    byTestId('folder-save')[0].click()
    await flushPromises()
    expect(fake.calls.find((c) => c.channel === 'files.setFolder')?.payload).toEqual({
      accountId: 'acct-aaaa',
      folder: '/home/me/Reports',
    })
    expect(fake.calls.find((c) => c.channel === 'exports.download')?.payload).toEqual({
      jobId: job.id,
    })
    expect(byTestId('export-job')[0].dataset.state).toBe('downloading')
  })

  it('offers the recent folders and the home folder’s subfolders; one click picks a folder', async () => {
    fake.handle('files.folderChoices', () => ({
      home: '/home/me',
      recent: ['/home/me/Audits/2026'],
      homeFolders: ['Audits', 'Downloads', 'Reports'],
    }))
    await downloadWithoutFolder()
    await vi.waitFor(() => expect(byTestId('folder-choice-home')).toHaveLength(3))
    expect(fake.calls.find((c) => c.channel === 'files.folderChoices')?.payload).toEqual({
      accountId: 'acct-aaaa',
    })
    const recent = byTestId('folder-choice-recent')
    expect(recent.map((r) => r.dataset.path)).toEqual(['/home/me/Audits/2026'])
    expect(byTestId('folder-choice-home').map((r) => r.textContent?.trim())).toEqual([
      'Audits',
      'Downloads',
      'Reports',
    ])
    // the most recent folder is offered first, picked already
    expect(recent[0].querySelector('input')?.checked).toBe(true)
    const reports = byTestId('folder-choice-home').find(
      (r) => r.dataset.path === '/home/me/Reports',
    )!
    reports.querySelector('input')!.click()
    await flushPromises()
    byTestId('folder-save')[0].click()
    await flushPromises()
    expect(fake.calls.find((c) => c.channel === 'files.setFolder')?.payload).toEqual({
      accountId: 'acct-aaaa',
      folder: '/home/me/Reports',
    })
    expect(byTestId('export-job')[0].dataset.state).toBe('downloading')
  })
})
