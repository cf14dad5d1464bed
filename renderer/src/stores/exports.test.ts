import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import type { ExportJob } from '@contract/files'
import { twoAccounts, useFakeApp } from '@/test/fakeApp'
import { deferred, Fail } from '@/test/fakeScandesk'
import { browserAppInfo, exportJob } from '@/test/fixtures'
import { useAccountsStore } from './accounts'
import { useAppStore } from './app'
import { useExportsStore } from './exports'

const jobsByAccount: Record<string, ExportJob[]> = {}

const fake = useFakeApp({
  accounts: twoAccounts,
  switchable: true,
  setup: (fake) => {
    jobsByAccount['acct-aaaa'] = [exportJob('acct-aaaa', { resourceName: 'A report' })]
    jobsByAccount['acct-bbbb'] = []
    fake.handle('exports.list', (p: { accountId: string }) => jobsByAccount[p.accountId] ?? [])
  },
})

const callsTo = (channel: string) => fake.calls.filter((c) => c.channel === channel)

describe('export jobs per account', () => {
  it('loads the active account’s jobs and follows exports.changed', async () => {
    const store = useExportsStore()
    await flushPromises()
    expect(store.jobs.map((j) => j.resourceName)).toEqual(['A report'])
    const job = store.jobs[0]
    fake.emit('exports.changed', { ...job, state: 'generating', updatedAt: '2030-01-01T00:00:05Z' })
    expect(store.jobs[0].state).toBe('generating')
    expect(store.activeCount).toBe(1)
  })

  it('ignores a late event for account A once B is active', async () => {
    const accounts = useAccountsStore()
    const store = useExportsStore()
    await flushPromises()
    const jobOfA = store.jobs[0]
    await accounts.setActive('acct-bbbb')
    await flushPromises()
    expect(store.jobs).toEqual([])
    fake.emit('exports.changed', { ...jobOfA, state: 'ready', updatedAt: '2030-01-02T00:00:00Z' })
    fake.emit('exports.changed', exportJob('acct-aaaa', { resourceName: 'new A job' }))
    expect(store.jobs).toEqual([])
    fake.emit('exports.changed', exportJob('acct-bbbb', { resourceName: 'B job' }))
    expect(store.jobs.map((j) => j.resourceName)).toEqual(['B job'])
  })

  it('drops a list answer for A that arrives after the switch to B', async () => {
    const slowA = deferred<ExportJob[]>()
    fake.handle('exports.list', (p: { accountId: string }) =>
      p.accountId === 'acct-aaaa' ? slowA.promise : [exportJob('acct-bbbb', { resourceName: 'B' })],
    )
    const accounts = useAccountsStore()
    const store = useExportsStore()
    await accounts.setActive('acct-bbbb')
    await flushPromises()
    slowA.resolve([exportJob('acct-aaaa', { resourceName: 'A' })])
    await flushPromises()
    expect(store.jobs.map((j) => j.resourceName)).toEqual(['B'])
  })

  it('shows nothing of a failed action for A that answers after the switch to B', async () => {
    const slow = deferred<unknown>()
    fake.handle('exports.generate', () => slow.promise)
    const accounts = useAccountsStore()
    const store = useExportsStore()
    await flushPromises()
    const generating = store.generate('report', 'rpt-001', 'pdf')
    await accounts.setActive('acct-bbbb')
    await flushPromises()
    slow.resolve(new Fail({ code: 'OFFLINE', message: 'A is offline.' }))
    const result = await generating
    expect(result.ok).toBe(false)
    expect(store.error).toBeNull()
    expect(store.jobs).toEqual([])
  })

  it('keeps the newer state when an older event arrives late', async () => {
    const store = useExportsStore()
    await flushPromises()
    const job = store.jobs[0]
    fake.emit('exports.changed', { ...job, state: 'verified', updatedAt: '2030-01-01T00:01:00Z' })
    fake.emit('exports.changed', {
      ...job,
      state: 'downloading',
      updatedAt: '2030-01-01T00:00:30Z',
    })
    expect(store.jobs[0].state).toBe('verified')
  })
})

/** Main reports the browser build (no native folder dialog). */
async function inBrowserMode(): Promise<void> {
  fake.handle('app.info', browserAppInfo)
  await useAppStore().load()
}

describe('downloading without a folder', () => {
  it('in browser mode asks for a folder, saves it, then downloads', async () => {
    await inBrowserMode()
    const store = useExportsStore()
    await flushPromises()
    const job = store.jobs[0]
    let folder: string | null = null
    fake.handle('files.getFolder', () => ({ folder }))
    fake.handle('files.setFolder', (p: { folder?: string }) => ({ folder: (folder = p.folder!) }))
    fake.handle('exports.download', () => ({ ...job, state: 'downloading' }))

    expect(await store.download(job.id)).toBeNull()
    expect(store.folderRequest).toEqual({ accountId: 'acct-aaaa', jobId: job.id, saveAs: false })
    expect(callsTo('exports.download')).toHaveLength(0)

    const saved = await store.saveFolder('/home/me/Reports')
    expect(saved.ok).toBe(true)
    expect(callsTo('files.setFolder')[0].payload).toEqual({
      accountId: 'acct-aaaa',
      folder: '/home/me/Reports',
    })
    expect(callsTo('exports.download')[0].payload).toEqual({ jobId: job.id })
    expect(store.folderRequest).toBeNull()
    expect(store.jobs[0].state).toBe('downloading')
  })

  it('in Electron lets main open the folder dialog (no folder in the request)', async () => {
    const store = useExportsStore()
    await flushPromises()
    const job = store.jobs[0]
    fake.handle('files.getFolder', () => ({ folder: null }))
    fake.handle('files.setFolder', () => ({ folder: '/Users/me/Reports' }))
    fake.handle('exports.download', () => ({ ...job, state: 'downloading' }))
    const result = await store.download(job.id)
    expect(result?.ok).toBe(true)
    expect(callsTo('files.setFolder')[0].payload).toEqual({ accountId: 'acct-aaaa' })
    expect(store.folderRequest).toBeNull()
  })

  it('keeps the folder dialog open with the error when main refuses the folder', async () => {
    await inBrowserMode()
    const store = useExportsStore()
    await flushPromises()
    fake.handle('files.getFolder', () => ({ folder: null }))
    fake.handle(
      'files.setFolder',
      () => new Fail({ code: 'FILE_NOT_FOUND', message: 'That folder does not exist.' }),
    )
    await store.download(store.jobs[0].id)
    const saved = await store.saveFolder('/nope')
    expect(saved.ok).toBe(false)
    expect(store.folderRequest).not.toBeNull()
    expect(callsTo('exports.download')).toHaveLength(0)
  })
})
