import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import type { ChangesAnswer } from '@contract/changes'
import type { SnapshotFinding } from '@contract/findings/compare'
import { detailName, RESOURCES } from '@/resources'
import { useTwoAccounts } from '@/test/composables'
import { byTestId, theTestId } from '@/test/dom'
import { mountWithApp } from '@/test/mountApp'
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
const run = (runId: string) => ({ runId, startedAt: '2026-11-01T10:00:00Z', finishedAt: null })

function mountTab(compare: (payload: Record<string, unknown>) => ChangesAnswer) {
  fake.handle('changes.snapshots', () => ({
    snapshots: [
      { runId: 'run-2', finishedAt: '2026-11-08T10:00:00Z', takenAt: '', findings: 2 },
      { runId: 'run-1', finishedAt: '2026-11-01T10:00:00Z', takenAt: '', findings: 2 },
    ],
    notes: [],
  }))
  fake.handle('changes.compare', compare)
  const page = { template: '<div />' }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      ...RESOURCES.map((r) => ({ path: `/${r.key}/:id`, name: detailName(r), component: page })),
      { path: '/:rest(.*)*', name: 'any', component: page },
    ],
  })
  const wrapper = mountWithApp(ScanChangesTab, {
    props: { scanId: 'scn-1' },
    global: { plugins: [router] },
  })
  mounted.push(wrapper)
  return wrapper
}

describe('a scan’s Changes', () => {
  it('lists New, Fixed, Changed and Still open, each finding linked to its page', async () => {
    mountTab(() => ({
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
    const wrapper = mountTab((payload) => {
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
            from: run('run-1'),
            to: run('run-2'),
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
