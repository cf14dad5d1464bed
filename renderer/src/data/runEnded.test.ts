import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { apiCalls, listAnswer, mountComposable, useTwoAccounts } from '@/test/composables'
import { useOperation } from './useOperation'

const fake = useTwoAccounts((fake) => {
  fake.handle('api.call', (p: { op: string }) => listAnswer(p.op, 1))
})

const asked = (op: string) => apiCalls(fake).filter((c) => c.op === op).length

describe('a scan run that main heard ended', () => {
  it('asks again what the window shows of that account’s scans, findings and reports, nothing else', async () => {
    mountComposable(() => useOperation('scans.show', { path: { id: 'scn-1' } }))
    mountComposable(() => useOperation('reports.list', { query: { scan_id: 'scn-1' } }))
    mountComposable(() => useOperation('vulnerabilities.list', {}))
    mountComposable(() => useOperation('targets.list', {}))
    await flushPromises()
    const before = ['scans.show', 'reports.list', 'vulnerabilities.list', 'targets.list'].map(asked)
    expect(before).toEqual([1, 1, 1, 1])

    // Another account's run: this window's reads stay as they are.
    fake.emit('scans.runEnded', { accountId: 'acct-bbbb', scanId: 'scn-9' })
    await flushPromises()
    expect(asked('scans.show')).toBe(1)

    fake.emit('scans.runEnded', { accountId: 'acct-aaaa', scanId: 'scn-1' })
    await flushPromises()
    const after = ['scans.show', 'reports.list', 'vulnerabilities.list', 'targets.list'].map(asked)
    expect(after).toEqual([2, 2, 2, 1])
  })
})
