import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_FEED_ADDRESS, type FeedAddressView } from '@contract/intel/feed-address'
import type { FeedUpdate, IntelPack } from '@contract/intel/packs'
import { mountScreen } from '@/test/composables'
import { byTestId, click, inputOf, theTestId } from '@/test/dom'
import { twoAccounts, useFakeApp } from '@/test/fakeApp'
import { deferred, Fail } from '@/test/fakeScandesk'
import IntelPacksDialog from './IntelPacksDialog.vue'

const DAY = 86_400_000
const pack = (over: Partial<IntelPack>): IntelPack => ({
  id: 1,
  feed: 'kev',
  edition: '2026.11.30',
  published: new Date(Date.now() - DAY).toISOString(),
  sha256: 'ab'.repeat(32),
  bytes: 1200,
  entries: 1234,
  importedAt: new Date().toISOString(),
  source: '/home/me/known_exploited_vulnerabilities.json',
  current: true,
  ...over,
})
let packs: IntelPack[] = []
const views = (saved: string | null = null): FeedAddressView[] =>
  (['kev', 'epss'] as const).map((feed) => ({
    feed,
    address: (feed === 'kev' && saved) || DEFAULT_FEED_ADDRESS[feed],
    saved: feed === 'kev' ? saved : null,
    defaultAddress: DEFAULT_FEED_ADDRESS[feed],
    demo: false,
  }))
/** What intel.update answers next, per feed (a promise holds it back). */
let updates: Partial<Record<'kev' | 'epss', () => FeedUpdate | Fail | Promise<FeedUpdate | Fail>>> =
  {}

const fake = useFakeApp({
  accounts: twoAccounts,
  store: 'app',
  setup: (fake) => {
    fake.handle('intel.packs', () => packs)
    fake.handle('intel.feeds', () => views())
    fake.handle('intel.setFeed', (p: { address: string | null }) =>
      p.address?.startsWith('http://')
        ? new Fail({
            code: 'VALIDATION',
            message: 'Some values are not valid.',
            fieldErrors: { address: ['A feed address must start with https://.'] },
          })
        : views(p.address),
    )
    fake.handle('intel.update', (p: { feed: 'kev' | 'epss' }) => updates[p.feed]!())
    fake.handle('intel.import', (p: { path?: string }) => {
      if (!p.path) return { imported: false, suggestedFolder: '/home/me' }
      if (p.path.endsWith('bad.csv'))
        return new Fail({
          code: 'VALIDATION',
          message: "The EPSS file's line 3 has 1 field, not 3. Nothing was imported.",
        })
      const added = pack({ id: 3, feed: 'epss', edition: 'v2025.03.14', source: p.path })
      packs = [...packs, added]
      return { imported: true, pack: added }
    })
  },
})
afterEach(() => {
  document.body.innerHTML = ''
  packs = []
  updates = {}
})

async function openDialog() {
  mountScreen(IntelPacksDialog, { props: { modelValue: true } })
  await flushPromises()
}

describe('the exploit-intelligence dialog', () => {
  it('says a feed with no pack reads as unknown, and shows each pack’s provenance, stale ones marked', async () => {
    packs = [
      pack({}),
      pack({
        id: 2,
        edition: '2026.10.01',
        current: false,
        published: new Date(Date.now() - 60 * DAY).toISOString(),
      }),
    ]
    await openDialog()
    const kev = theTestId('intel-feed-kev')
    const shown = kev.querySelectorAll('[data-testid="intel-pack"]')
    expect(shown).toHaveLength(2)
    expect(shown[0]!.textContent).toContain('2026.11.30')
    expect(shown[0]!.textContent).toContain('in use')
    expect(shown[0]!.textContent).toContain('1,234')
    expect(shown[0]!.textContent).toContain('ab'.repeat(32))
    expect(shown[0]!.textContent).toContain('/home/me/known_exploited_vulnerabilities.json')
    expect(shown[0]!.querySelector('[data-testid="intel-stale"]')).toBeNull()
    expect(shown[1]!.querySelector('[data-testid="intel-stale"]')).not.toBeNull()
    expect(theTestId('intel-feed-epss').textContent).toContain(
      'None imported: EPSS reads as unknown.',
    )
  })

  it('asks for a typed path in browser mode, imports it and lists the new pack', async () => {
    await openDialog()
    await click('intel-import')
    const input = inputOf('intel-path')
    expect(input.value).toBe('/home/me/')
    input.value = '/home/me/epss.csv.gz'
    input.dispatchEvent(new Event('input'))
    await click('intel-go')
    expect(fake.calls.filter((c) => c.channel === 'intel.import').map((c) => c.payload)).toEqual([
      { accountId: 'acct-aaaa' },
      { accountId: 'acct-aaaa', path: '/home/me/epss.csv.gz' },
    ])
    expect(theTestId('intel-feed-epss').textContent).toContain('v2025.03.14')
    expect(byTestId('intel-path')).toHaveLength(0)
  })

  it('shows a refusal in the parser’s words and keeps the path to correct', async () => {
    await openDialog()
    await click('intel-import')
    const input = inputOf('intel-path')
    input.value = '/home/me/bad.csv'
    input.dispatchEvent(new Event('input'))
    await click('intel-go')
    expect(theTestId('intel-error').textContent).toContain('line 3 has 1 field, not 3')
    expect(inputOf('intel-path').value).toBe('/home/me/bad.csv')
  })

  it('updates a feed from its address: busy while it runs, then names the edition and date', async () => {
    const later = pack({ id: 7, edition: '2026.12.01', published: '2026-12-01T14:00:00.000Z' })
    const held = deferred<FeedUpdate>()
    updates.kev = () => held.promise
    await openDialog()
    expect(theTestId('intel-address-kev').textContent).toContain(DEFAULT_FEED_ADDRESS.kev)
    await click('intel-update-kev')
    expect(theTestId('intel-update-kev').textContent).toContain('Updating…')
    expect(theTestId('intel-update-kev').classList.contains('is-loading')).toBe(true)
    packs = [later]
    held.resolve({ status: 'updated', pack: later })
    await flushPromises()
    expect(theTestId('intel-updated-kev').textContent).toContain(
      'CISA KEV 2026.12.01 (released 2026-12-01) is now in use: 1,234 CVEs.',
    )
    expect(theTestId('intel-update-kev').textContent).toContain('Update now')
    expect(theTestId('intel-feed-kev').textContent).toContain('2026.12.01')
    expect(fake.calls.filter((c) => c.channel === 'intel.update').map((c) => c.payload)).toEqual([
      { accountId: 'acct-aaaa', feed: 'kev' },
    ])
  })

  it('Update both runs each feed and shows each outcome, a refusal in main’s words', async () => {
    const current = pack({
      id: 4,
      feed: 'epss',
      edition: 'v2025.03.14',
      published: '2026-11-30T00:00:00+00:00',
    })
    updates.kev = () =>
      new Fail({
        code: 'OFFLINE',
        message:
          'CISA KEV was not updated from https://www.cisa.gov/…: Work offline is on. The packs are unchanged.',
      })
    updates.epss = () => ({ status: 'current', pack: current })
    await openDialog()
    await click('intel-update-both')
    expect(theTestId('intel-update-error-kev').textContent).toContain('Work offline is on.')
    expect(theTestId('intel-updated-epss').textContent).toContain(
      'FIRST EPSS v2025.03.14 (scores of 2026-11-30) is already current.',
    )
    expect(byTestId('intel-updated-kev')).toHaveLength(0)
  })

  it('changes a feed’s address, showing why one is refused', async () => {
    await openDialog()
    await click('intel-address-edit-kev')
    const input = inputOf('intel-address-input-kev')
    expect(input.value).toBe(DEFAULT_FEED_ADDRESS.kev)
    input.value = 'http://mirror.example/kev.json'
    input.dispatchEvent(new Event('input'))
    input.form!.requestSubmit()
    await flushPromises()
    expect(theTestId('intel-address-kev').textContent).toContain('must start with https://')
    input.value = 'https://mirror.example/kev.json'
    input.dispatchEvent(new Event('input'))
    input.form!.requestSubmit()
    await flushPromises()
    expect(byTestId('intel-address-input-kev')).toHaveLength(0)
    expect(theTestId('intel-address-kev').textContent).toContain('https://mirror.example/kev.json')
  })
})
