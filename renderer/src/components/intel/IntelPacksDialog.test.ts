import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import type { IntelPack } from '@contract/intel/packs'
import { mountScreen } from '@/test/composables'
import { byTestId, click, inputOf, theTestId } from '@/test/dom'
import { twoAccounts, useFakeApp } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
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

const fake = useFakeApp({
  accounts: twoAccounts,
  store: 'app',
  setup: (fake) => {
    fake.handle('intel.packs', () => packs)
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
})
