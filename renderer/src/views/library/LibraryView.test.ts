import { useLibraryStore } from '@/stores/library'
import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LedgerEntry } from '@contract/files'
import { catchAllRouter as router } from '@/test/composables'
import { useFakeApp } from '@/test/fakeApp'
import { account, appInfo, ledgerEntry } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import { useAppStore } from '@/stores/app'
import LibraryView from './LibraryView.vue'

let entries: LedgerEntry[]

const fake = useFakeApp({
  accounts: () => [account('acct-aaaa'), account('acct-bbbb', { color: '#e6a23c' })],
  setup: (fake) => {
    entries = [
      ledgerEntry({ resourceName: 'Good', verdict: 'verified' }),
      ledgerEntry({
        resourceName: 'Bad',
        verdict: 'mismatch',
        detail: 'Moved to /home/me/Reports/Quarantine',
      }),
      ledgerEntry({ resourceName: 'Gone', verdict: 'missing', verifiedAt: null }),
      ledgerEntry({ resourceName: 'New', verdict: 'unverified', accountId: 'acct-bbbb' }),
    ]
    fake.handle('library.list', (p: { accountId?: string; search?: string }) =>
      entries.filter(
        (e) =>
          (!p.accountId || e.accountId === p.accountId) &&
          (!p.search || e.resourceName.includes(p.search)),
      ),
    )
  },
})

const rows = () => [...document.querySelectorAll<HTMLElement>('[data-testid="library-row"]')]
const mountLibrary = () => mountWithApp(LibraryView, { global: { plugins: [router()] } })

describe('the library of downloaded files', () => {
  it('shows each file with its verdict in the verdict’s colour', async () => {
    mountLibrary()
    await flushPromises()
    // By default only the active account's files; "All accounts" shows every account's.
    expect(rows().map((r) => r.dataset.verdict)).not.toContain('unverified')
    useLibraryStore().chooseAccount(null)
    await useLibraryStore().load()
    await flushPromises()
    expect(rows().map((r) => r.dataset.verdict)).toEqual([
      'verified',
      'mismatch',
      'missing',
      'unverified',
    ])
    const tags = [...document.querySelectorAll('[data-testid="library-verdict"]')]
    expect(tags.map((t) => t.textContent?.trim())).toEqual([
      'Verified',
      'Mismatch',
      'Missing',
      'Unverified',
    ])
    expect(tags[0].className).toContain('el-tag--success')
    expect(tags[1].className).toContain('el-tag--danger')
    expect(tags[2].className).toContain('el-tag--info')
    expect(tags[3].className).toContain('el-tag--warning')
    const table = document.querySelector('[data-testid="library-table"]')!
    expect(table.textContent).toContain('Moved to /home/me/Reports/Quarantine')
    expect(table.textContent).toContain('never checked')
  })

  it('re-verifies a file offline and shows the new verdict', async () => {
    mountLibrary()
    await flushPromises()
    const good = entries[0]
    fake.handle('library.reverify', () => ({
      ...good,
      verdict: 'changed',
      detail: 'The file changed on disk since it was verified.',
      verifiedAt: '2030-02-01T00:00:00Z',
    }))
    rows()[0].querySelector<HTMLElement>('[data-testid="library-reverify-offline"]')!.click()
    await flushPromises()
    expect(fake.calls.find((c) => c.channel === 'library.reverify')?.payload).toEqual({
      entryId: good.id,
      mode: 'offline',
    })
    expect(rows()[0].dataset.verdict).toBe('changed')
    expect(document.querySelector('[data-testid="library-table"]')!.textContent).toContain(
      'The file changed on disk since it was verified.',
    )
  })

  it('re-verifies online with mode online', async () => {
    mountLibrary()
    await flushPromises()
    fake.handle('library.reverify', () => entries[1])
    rows()[1].querySelector<HTMLElement>('[data-testid="library-reverify-online"]')!.click()
    await flushPromises()
    expect(fake.calls.find((c) => c.channel === 'library.reverify')?.payload).toEqual({
      entryId: entries[1].id,
      mode: 'online',
    })
  })

  it('filters by account and reloads when main reports a change', async () => {
    const wrapper = mountLibrary()
    await flushPromises()
    wrapper.findComponent({ name: 'ElSelect' }).vm.$emit('update:modelValue', 'acct-bbbb')
    await flushPromises()
    expect(fake.calls.filter((c) => c.channel === 'library.list').at(-1)?.payload).toEqual({
      accountId: 'acct-bbbb',
    })
    expect(rows()).toHaveLength(1)
    entries.push(ledgerEntry({ accountId: 'acct-bbbb', resourceName: 'Another' }))
    fake.emit('library.changed', { accountId: 'acct-bbbb' })
    await flushPromises()
    expect(rows()).toHaveLength(2)
  })

  it('shows SAQ files as recorded at download, neutral, with their type, status and requirement', async () => {
    entries.splice(
      0,
      entries.length,
      ledgerEntry({
        kind: 'saq',
        resourceName: 'Web shop SAQ',
        verdict: 'recorded',
        detail: 'SHA-256 recorded at download; the service offers no check for SAQ files.',
        saq: { saqType: 'A', status: 'approved', requirement: null },
      }),
      ledgerEntry({
        kind: 'saq_evidence',
        format: 'file',
        resourceName: 'Web shop SAQ',
        path: '/home/me/Reports/SAQ/Evidence/saq-1/8.3.1/rules.conf',
        verdict: 'recorded',
        saq: { saqType: 'A', status: 'draft', requirement: '8.3.1' },
      }),
    )
    mountLibrary()
    await flushPromises()
    expect(rows().map((r) => r.dataset.verdict)).toEqual(['recorded', 'recorded'])
    const tags = [...document.querySelectorAll<HTMLElement>('[data-testid="library-verdict"]')]
    expect(tags.map((t) => t.textContent?.trim())).toEqual([
      'Recorded at download',
      'Recorded at download',
    ])
    expect(tags[0].className).toContain('el-tag--info')
    expect(tags[0].title).toMatch(/service offers no hash check for SAQ files/)
    const facts = [...document.querySelectorAll('[data-testid="library-saq"]')]
    expect(facts.map((f) => f.textContent?.trim())).toEqual([
      'SAQ · type A · approved',
      'SAQ evidence · type A · draft · requirement 8.3.1',
    ])
    const table = document.querySelector('[data-testid="library-table"]')!
    expect(table.textContent).toContain('File')
    // A recorded verdict's detail is information, not a warning.
    const detail = [...table.querySelectorAll('.library__detail')][0]
    expect(detail.className).not.toContain('library__detail--bad')
  })
})

describe('a file of the library', () => {
  const copied: string[] = []
  afterEach(() => {
    copied.length = 0
    vi.unstubAllGlobals()
  })
  const stubClipboard = () =>
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: async (text: string) => void copied.push(text) },
    })
  const within = (row: HTMLElement, id: string) =>
    row.closest('tr')!.querySelector<HTMLElement>(`[data-testid="${id}"]`)!
  const hash = 'f00dbabe0123' + '4'.repeat(52)

  it('shows the SHA-256 the ledger recorded, short, and copies it whole without checking', async () => {
    entries.splice(0, entries.length, ledgerEntry({ resourceName: 'Good', sha256: hash }))
    stubClipboard()
    mountLibrary()
    await flushPromises()
    const short = within(rows()[0], 'library-hash-short')
    expect(short.textContent).toBe('f00dbabe0123…')
    expect(short.title).toBe(hash)
    within(rows()[0], 'library-hash-copy').click()
    await flushPromises()
    expect(copied).toEqual([hash])
    // Reading the digest is no verification: nothing was asked of main for it.
    expect(fake.calls.map((c) => c.channel)).not.toContain('library.reverify')
  })

  it('says where the file is in browser mode, copyable, instead of opening it', async () => {
    const path = '/home/me/Reports/Good rpt-001 2030-01-01.pdf'
    entries.splice(0, entries.length, ledgerEntry({ resourceName: 'Good', path }))
    stubClipboard()
    useAppStore().info = appInfo('browser')
    mountLibrary()
    await flushPromises()
    within(rows()[0], 'library-open').click()
    await vi.dynamicImportSettled()
    await flushPromises()
    const where = document.querySelector<HTMLElement>('[data-testid="library-location"]')!
    expect(where.textContent).toContain('Where “Good” is')
    const field = where.querySelector<HTMLTextAreaElement>(
      '[data-testid="library-location-path"] textarea, textarea[data-testid="library-location-path"]',
    )!
    expect(field.value).toBe(path)
    expect(field.readOnly).toBe(true)
    where.querySelector<HTMLElement>('[data-testid="library-location-copy"]')!.click()
    await flushPromises()
    expect(copied).toEqual([path])
    expect(fake.calls.map((c) => c.channel)).not.toContain('library.open')
  })

  it('opens the file with the system in Electron', async () => {
    fake.handle('library.open', () => ({ opened: true }))
    useAppStore().info = appInfo('electron')
    mountLibrary()
    await flushPromises()
    within(rows()[0], 'library-open').click()
    await vi.dynamicImportSettled()
    await flushPromises()
    expect(fake.calls.find((c) => c.channel === 'library.open')?.payload).toEqual({
      entryId: entries[0].id,
    })
    expect(document.querySelector('[data-testid="library-location"]')).toBeNull()
  })
})
