// ScanDesk's overdue and due-soon filters (issue 20) ask the service for a first-seen range of one
// severity (vulnerabilities.list through the core's dispatch, over HTTP to the sandbox): each count
// equals a brute-force count over every page of the sandbox's open findings by the contract's due
// arithmetic, under the default policy and a stricter one.
import { describe, expect, it } from 'vitest'
import type { ApiCallOutput } from '@contract/channels'
import {
  DEFAULT_POLICY,
  dueState,
  firstSeenRange,
  POLICY_SEVERITIES,
  type DueFilter,
  type RemediationPolicy,
} from '@contract/remediation'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'analyst' })

interface Finding {
  id: string
  attributes: { severity: string; first_seen_at: string }
}
interface Page {
  data: Finding[]
  meta: { pagination: { total_count: number; total_pages: number } }
}

async function list(query: Record<string, unknown>): Promise<Page> {
  const out = await s.t.ok<ApiCallOutput>('api.call', {
    accountId: s.account.id,
    op: 'vulnerabilities.list',
    input: { query },
  })
  return out.data as Page
}

/** Every open finding the service lists, page by page (small pages: several of them). */
async function everyFinding(): Promise<Finding[]> {
  const all: Finding[] = []
  for (let page = 1; ; page++) {
    const p = await list({ page, per_page: 50, sort: 'first_seen_at' })
    all.push(...p.data)
    if (page >= p.meta.pagination.total_pages) break
  }
  return all
}

/** The brute force: what the filter keeps among `all`, by the contract's due state. */
function bruteForce(
  all: Finding[],
  filter: DueFilter,
  severity: string,
  policy: RemediationPolicy,
  now: number,
): string[] {
  return all
    .filter((f) => f.attributes.severity === severity)
    .filter((f) => {
      const st = dueState(f.attributes, policy, now)
      if (st.kind !== 'due') return false
      return filter.kind === 'overdue'
        ? st.overdueMs > 0
        : st.overdueMs <= 0 && st.dueAt < now + filter.days * 86_400_000
    })
    .map((f) => f.id)
    .sort()
}

describe('the overdue and due-soon filters', () => {
  it('ask the service for a first-seen range and get exactly the brute-force findings', async () => {
    const all = await everyFinding()
    expect(all.length).toBeGreaterThan(100)
    const now = Date.now()
    const strict: RemediationPolicy = { critical: 5, high: 10, medium: 20, low: 40 }
    const filters: DueFilter[] = [{ kind: 'overdue' }, { kind: 'due_within', days: 30 }]
    let overdueSeen = 0
    let partial = 0
    for (const policy of [DEFAULT_POLICY, strict])
      for (const severity of POLICY_SEVERITIES)
        for (const filter of filters) {
          const range = firstSeenRange(filter, severity, policy, now)!
          const p = await list({ severity, ...range, per_page: 500 })
          const expected = bruteForce(all, filter, severity, policy, now)
          expect(p.meta.pagination.total_count, `${severity} ${filter.kind}`).toBe(expected.length)
          expect(p.data.map((f) => f.id).sort()).toEqual(expected)
          if (policy === DEFAULT_POLICY && filter.kind === 'overdue') overdueSeen += expected.length
          const ofSeverity = all.filter((f) => f.attributes.severity === severity).length
          if (expected.length > 0 && expected.length < ofSeverity) partial++
        }
    // The demo's data has overdue findings under the default policy.
    expect(overdueSeen).toBeGreaterThan(0)
    // The range did filter: some answers hold some, not all, of a severity's findings.
    expect(partial).toBeGreaterThan(4)
  })

  it('has overdue findings of every severity in the demo data under the default policy', async () => {
    const all = await everyFinding()
    const now = Date.now()
    for (const severity of POLICY_SEVERITIES)
      expect(
        bruteForce(all, { kind: 'overdue' }, severity, DEFAULT_POLICY, now).length,
        severity,
      ).toBeGreaterThan(0)
  })

  it('refuses a first-seen bound that is not a date before asking the service', async () => {
    const before = s.sandbox.requests.length
    const r = await s.t.call('api.call', {
      accountId: s.account.id,
      op: 'vulnerabilities.list',
      input: { query: { first_seen_before: 'last tuesday' } },
    })
    expect(r.ok).toBe(false)
    expect(JSON.stringify(!r.ok && r.error)).toContain('first_seen_before')
    expect(s.sandbox.requests.slice(before).some((l) => l.includes('first_seen'))).toBe(false)
  })
})
