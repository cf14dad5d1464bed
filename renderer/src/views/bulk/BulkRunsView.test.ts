import { afterEach, describe, expect, it } from 'vitest'
import type { BulkRunView } from '@contract/bulk'
import { byTestId, settle, theTestId } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'
import { twoAccounts, useFakeApp } from '@/test/fakeApp'
import { mountRouted, type Routed } from '@/test/routed'
import { useAppStore } from '@/stores/app'
import BulkRunsView from './BulkRunsView.vue'

const ID_A = '1b4e28ba-2fa1-41d2-883f-0016d3cca427'
const ID_B = '6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b'

function run(id: string, accountId: string, over: Partial<BulkRunView> = {}): BulkRunView {
  return {
    id,
    accountId,
    action: 'exceptions.create',
    summary: 'Create exceptions',
    body: { kind: 'accepted_risk', reason: 'Segment isolated', expires_at: '2099-01-01T00:00:00Z' },
    counts: { queued: 0, sending: 0, done: 3, skipped: 1, failed: 0, cancelled: 0, total: 4 },
    state: 'finished',
    createdAt: '2026-11-26T10:00:00Z',
    updatedAt: '2026-11-26T10:01:00Z',
    kept: 'disk',
    ...over,
  }
}

let fail = false
const fake = useFakeApp({
  accounts: twoAccounts,
  switchable: true,
  store: 'app',
  setup: (fake) =>
    fake.handle('bulk.list', (p: { accountId: string }) =>
      fail
        ? new Fail({ code: 'KEYCHAIN_UNAVAILABLE', message: 'The keychain does not answer.' })
        : p.accountId === 'acct-aaaa'
          ? [
              run(ID_B, p.accountId, {
                summary: 'Renew exceptions',
                body: { expires_at: '2099-06-01T00:00:00Z' },
                state: 'running',
                counts: {
                  queued: 8,
                  sending: 1,
                  done: 1,
                  skipped: 0,
                  failed: 0,
                  cancelled: 0,
                  total: 10,
                },
                createdAt: '2026-11-26T11:00:00Z',
              }),
              run(ID_A, p.accountId),
            ]
          : [],
    ),
})
let screen: Routed | null = null
afterEach(() => {
  screen?.unmount()
  screen = null
  fail = false
})

async function open(): Promise<void> {
  screen = await mountRouted(BulkRunsView, {
    path: '/bulk',
    routes: [
      { path: '/bulk', component: BulkRunsView },
      { path: '/bulk/:runId', name: 'bulk-run', component: { render: () => null } },
    ],
  })
}

describe('the bulk runs screen', () => {
  it('lists the account’s runs, newest first, with their results', async () => {
    await open()
    expect(fake.calls.filter((c) => c.channel === 'bulk.list').map((c) => c.payload)).toEqual([
      { accountId: 'acct-aaaa' },
    ])
    const rows = theTestId('bulk-runs').querySelectorAll('.el-table__body .el-table__row')
    expect([...rows].map((r) => r.textContent)).toEqual([
      expect.stringMatching(/Renew exceptions.*1 done, 0 skipped, 0 failed\s*\(1 of 10 so far\)/s),
      expect.stringMatching(
        /Create exceptions.*Segment isolated.*3 done, 1 skipped, 0 failed\s*of 4/s,
      ),
    ])
  })

  it('opens a run’s result page from its row', async () => {
    await open()
    const links = byTestId('bulk-runs-open')
    expect(links.map((l) => l.dataset.id)).toEqual([ID_B, ID_A])
    links[1].click()
    await settle()
    expect(screen!.router.currentRoute.value.fullPath).toBe(`/bulk/${ID_A}`)
  })

  it('lists the other account’s runs after a switch, and says when it cannot read them', async () => {
    await open()
    await useAppStore().switchTo('acct-bbbb')
    await settle()
    expect(theTestId('bulk-runs').textContent).toContain('No bulk run on this computer yet.')
    screen!.unmount()
    fail = true
    await open()
    expect(theTestId('bulk-runs-error').textContent).toContain('The keychain does not answer.')
  })
})
