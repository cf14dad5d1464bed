import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChangesAnswer, ComparedRun, ScanRunChoice } from '@contract/changes'
import type { SnapshotFinding } from '@contract/findings/compare'
import { useTwoAccounts } from '@/test/composables'
import { byTestId, click, theTestId } from '@/test/dom'
import { mountWithApp } from '@/test/mountApp'
import { recordRouter } from '@/test/routed'
import ScanChangesTab from './ScanChangesTab.vue'

let mounted: { unmount: () => void }[] = []
afterEach(() => {
  for (const w of mounted) w.unmount()
  mounted = []
})
const fake = useTwoAccounts()

const finding = (id: string, severity: SnapshotFinding['severity'] = 'high'): SnapshotFinding => ({
  id,
  title: `Finding ${id}`,
  severity,
  cvss_score: 7.5,
  cve_ids: [],
  host_id: 'hst-1',
  host_ip: '203.0.113.1',
  port: 443,
  protocol: 'tcp',
})
const run = (runId: string, source: ComparedRun['source'] = 'snapshot'): ComparedRun => ({
  runId,
  startedAt: '2026-11-01T10:00:00Z',
  finishedAt: null,
  source,
})
/** A run of the history: run-N started N weeks after the first. */
const choice = (n: number, over: Partial<ScanRunChoice> = {}): ScanRunChoice => ({
  runId: `run-${n}`,
  status: 'completed',
  startedAt: `2026-11-0${n}T10:00:00Z`,
  finishedAt: `2026-11-0${n}T10:30:00Z`,
  comparable: true,
  snapshot: true,
  ...over,
})

async function mountTab(
  compare: (payload: Record<string, unknown>) => ChangesAnswer,
  options: { runs?: ScanRunChoice[]; path?: string } = {},
) {
  const runs = options.runs ?? [choice(2), choice(1)]
  fake.handle('changes.snapshots', () => ({
    runs,
    snapshots: runs
      .filter((r) => r.snapshot)
      .map((r) => ({ runId: r.runId, finishedAt: r.finishedAt, takenAt: '', findings: 2 })),
    notes: [],
  }))
  fake.handle('changes.compare', compare)
  const router = recordRouter()
  await router.push(options.path ?? '/scans/scn-1')
  const wrapper = mountWithApp(ScanChangesTab, {
    props: { scanId: 'scn-1' },
    global: { plugins: [router] },
  })
  mounted.push(wrapper)
  return { wrapper, router }
}

describe('a scan’s Changes', () => {
  it('lists New, Fixed, Changed and Still open, each finding linked to its page', async () => {
    await mountTab(() => ({
      basis: 'snapshots',
      from: run('run-1'),
      to: run('run-2'),
      comparison: {
        new: [finding('vul-3')],
        fixed: [finding('vul-1')],
        stillOpen: [finding('vul-2', 'critical')],
        changed: [{ before: finding('vul-2'), after: finding('vul-2', 'critical') }],
        leftOut: 0,
      },
      notes: [],
      fromCache: false,
    }))
    await flushPromises()
    expect(theTestId('changes-basis').textContent).toMatch(/^Exact, from the snapshots/)
    const ids = (group: string) =>
      [...theTestId(group).querySelectorAll('[data-testid="changes-finding"]')].map((a) =>
        a.getAttribute('data-id'),
      )
    expect(ids('changes-new')).toEqual(['vul-3'])
    expect(ids('changes-fixed')).toEqual(['vul-1'])
    expect(ids('changes-changed')).toEqual(['vul-2'])
    expect(ids('changes-still-open')).toEqual(['vul-2'])
    expect(theTestId('changes-fixed').querySelector('a')?.getAttribute('href')).toContain(
      '/vulnerabilities/vul-1',
    )
    // a changed severity, before → after, as dark tags app.css fills with each severity's colour
    const tags = [...theTestId('changes-changed').querySelectorAll<HTMLElement>('.el-tag')]
    expect(tags.map((t) => [t.dataset.severity, t.classList.contains('el-tag--dark')])).toEqual([
      ['high', true],
      ['critical', true],
    ])
  })

  it('says in words what the data cannot say: no tables when nothing compares, changes unknown from times', async () => {
    let basis: 'none' | 'times' = 'none'
    const asked: Record<string, unknown>[] = []
    const { wrapper } = await mountTab((payload) => {
      asked.push(payload)
      return basis === 'none'
        ? {
            basis: 'none',
            from: null,
            to: run('run-2'),
            comparison: null,
            notes: [
              'This is the scan’s only completed run: there is no earlier run to compare it with.',
            ],
            fromCache: false,
          }
        : {
            basis: 'times',
            from: run('run-1', 'times'),
            to: run('run-2', 'times'),
            comparison: {
              new: [],
              fixed: [],
              stillOpen: [finding('vul-2')],
              changed: null,
              leftOut: 0,
            },
            notes: ['Compared from the findings’ first and last seen times.'],
            fromCache: false,
          }
    })
    await flushPromises()
    expect(theTestId('changes-note').textContent).toMatch(/no earlier run/)
    expect(byTestId('changes-new')).toEqual([])
    expect(byTestId('csv-export')).toEqual([])

    basis = 'times'
    await wrapper.setProps({ finishedAt: '2026-11-08T10:00:00Z' })
    await flushPromises()
    expect(asked).toHaveLength(2)
    expect(theTestId('changes-new').textContent).toContain('No finding is new in the later run.')
    expect(theTestId('changes-changed-unknown').textContent).toMatch(/Not known/)
    expect(byTestId('changes-changed')).toEqual([])
    expect(byTestId('csv-export')).toHaveLength(1)
  })
})

describe('choosing the runs to compare', () => {
  /** The comparison main gives for a pair, each side from a snapshot or from times. */
  const answerFor = (runs: ScanRunChoice[]) => (payload: Record<string, unknown>) => {
    const from = String(payload.from ?? 'run-2')
    const to = String(payload.to ?? 'run-3')
    const side = (id: string) =>
      run(id, runs.find((r) => r.runId === id)?.snapshot ? 'snapshot' : 'times')
    return {
      basis: runs.every((r) => r.snapshot) ? 'snapshots' : 'times',
      from: side(from),
      to: side(to),
      comparison: {
        new: [],
        fixed: [finding(`vul-${from}`)],
        stillOpen: [],
        changed: null,
        leftOut: 0,
      },
      notes: ['A run without a snapshot is read from the findings’ first and last seen times.'],
      fromCache: false,
    } satisfies ChangesAnswer
  }
  const history = [
    choice(4, { status: 'stopped', comparable: false, snapshot: false }),
    choice(3),
    choice(2, { snapshot: false }),
    choice(1, { snapshot: false }),
  ]
  const compares = () =>
    fake.calls
      .filter((c) => c.channel === 'changes.compare')
      .map((c) => {
        const { from, to } = c.payload as { from?: string; to?: string }
        return from && to ? `${from}→${to}` : 'latest'
      })
  /** The text a picker shows as its value (its placeholder when it holds none). */
  const pickerText = (id: string) =>
    theTestId(id).querySelector('.el-select__selected-item:not(.is-hidden)')?.textContent?.trim()
  /** The options of one picker (each select has its own dropdown list). */
  function optionsOf(id: string): HTMLElement[] {
    const list = theTestId(id).querySelector('[role="combobox"]')?.getAttribute('aria-controls')
    return [...document.querySelectorAll<HTMLElement>(`[id="${list}"] .el-select-dropdown__item`)]
  }
  async function pick(id: string, runId: string): Promise<void> {
    theTestId(id).querySelector<HTMLElement>('.el-select__wrapper')!.click()
    await flushPromises()
    const option = optionsOf(id).find((o) => o.dataset.run === runId)!
    expect(option.classList.contains('is-disabled')).toBe(false)
    option.click()
    await flushPromises()
  }

  it('shows the runs compared, offers every run of the history, and says which side is approximate', async () => {
    await mountTab(answerFor(history), { runs: history })
    await flushPromises()
    expect(pickerText('changes-from')).toContain('(run-2)')
    expect(pickerText('changes-to')).toContain('(run-3)')
    expect(theTestId('changes-from-source').textContent?.trim()).toBe('Approximate: times')
    expect(theTestId('changes-to-source').textContent?.trim()).toBe('Exact: snapshot')
    expect(theTestId('changes-basis').textContent).toMatch(
      /^Approximate on one side: the earlier run, .*\(run-2\), is read from the findings’ first and last seen times \(ScanDesk kept no snapshot of it\); the later run, .*\(run-3\), is exact, from its snapshot\.$/,
    )
    // Every run is offered; the stopped one is said and cannot be chosen, nor the later run.
    theTestId('changes-from').querySelector<HTMLElement>('.el-select__wrapper')!.click()
    await flushPromises()
    const offered = optionsOf('changes-from').map((o) => [
      o.dataset.run,
      o.classList.contains('is-disabled'),
      o.textContent?.replace(/.*\)/, '').trim(),
    ])
    expect(offered).toEqual([
      ['run-4', true, 'stopped: not compared'],
      ['run-3', true, 'snapshot'],
      ['run-2', false, 'from times'],
      ['run-1', false, 'from times'],
    ])
  })

  it('compares the runs chosen, keeps them in the address, earlier first, and goes back to the latest two', async () => {
    const { router } = await mountTab(answerFor(history), { runs: history })
    await flushPromises()
    expect(compares()).toEqual(['latest'])
    await pick('changes-from', 'run-1')
    expect(router.currentRoute.value.query).toMatchObject({ from: 'run-1', to: 'run-3' })
    expect(compares()).toEqual(['latest', 'run-1→run-3'])
    expect(pickerText('changes-from')).toContain('(run-1)')
    expect(theTestId('changes-fixed').textContent).toContain('Finding vul-run-1')
    // A later run chosen before the earlier one: the pair is put in order.
    await pick('changes-to', 'run-2')
    await pick('changes-from', 'run-3')
    expect(router.currentRoute.value.query).toMatchObject({ from: 'run-2', to: 'run-3' })
    expect(compares().at(-1)).toBe('run-2→run-3')
    await click('changes-latest')
    expect(router.currentRoute.value.query.from).toBeUndefined()
    expect(compares().at(-1)).toBe('latest')
  })

  it('compares the runs an address names from the first question', async () => {
    await mountTab(answerFor(history), { runs: history, path: '/scans/scn-1?from=run-1&to=run-2' })
    await flushPromises()
    expect(compares()).toEqual(['run-1→run-2'])
    expect(pickerText('changes-from')).toContain('(run-1)')
    expect(pickerText('changes-to')).toContain('(run-2)')
    expect(theTestId('changes-basis').textContent).toMatch(/^Approximate: both runs are read/)
  })
})
