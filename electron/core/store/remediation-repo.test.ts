import { beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_POLICY } from '@contract/remediation'
import { AccountsRepo } from './accounts-repo'
import { RemediationRepo } from './remediation-repo'
import { useTestDb } from './test-db'

const t = useTestDb('scandesk-remediation-', ['acc-00000001', 'acc-00000002'])
let repo: RemediationRepo

beforeEach(() => {
  repo = new RemediationRepo(t.db)
})

describe('remediation policies', () => {
  it('are the defaults, notifications off, until one is saved', () => {
    expect(repo.get('acc-00000001')).toEqual({
      policy: DEFAULT_POLICY,
      notify: false,
      saved: false,
      savedAt: null,
    })
  })

  it('are kept per account across reopening, and go with the account', () => {
    const mine = { policy: { critical: 7, high: 14, medium: null, low: 365 }, notify: true }
    const at = new Date('2026-11-26T10:00:00.000Z')
    expect(repo.set('acc-00000001', mine, at)).toMatchObject({ ...mine, saved: true })
    t.reopen()
    repo = new RemediationRepo(t.db)
    expect(repo.get('acc-00000001')).toEqual({ ...mine, saved: true, savedAt: at.toISOString() })
    expect(repo.get('acc-00000002').saved).toBe(false)
    new AccountsRepo(t.db).delete('acc-00000001')
    expect(repo.get('acc-00000001').saved).toBe(false)
  })

  it('refuses a policy the contract refuses and an unknown account', () => {
    const bad = { policy: { ...DEFAULT_POLICY, high: 0 }, notify: false }
    expect(() => repo.set('acc-00000001', bad)).toThrow()
    expect(repo.set('acc-gone', { policy: DEFAULT_POLICY, notify: false })).toBeNull()
  })

  it('falls back to the defaults when the stored row is not a policy', () => {
    t.db
      .prepare(
        "INSERT INTO remediation_policies (account_id, data, saved_at) VALUES ('acc-00000002', '{\"policy\":1}', 'x')",
      )
      .run()
    expect(repo.get('acc-00000002')).toMatchObject({ policy: DEFAULT_POLICY, saved: false })
  })
})
