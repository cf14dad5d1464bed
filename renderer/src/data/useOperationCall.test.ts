import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useResourceActions } from '@/composables/resourceActions'
import { resourceByKey } from '@/resources'
import { apiCalls, listAnswer, mountComposable, withTwoAccounts } from '@/test/composables'
import type { FakeScandesk } from '@/test/fakeScandesk'
import { useOperation } from './useOperation'
import { QUEUED_MESSAGE, useOperationCall } from './useOperationCall'

let fake: FakeScandesk
beforeEach(() => {
  fake = withTwoAccounts()
  fake.handle('api.call', (p: { op: string }) =>
    p.op.startsWith('notifications.mark')
      ? { data: null, fetchedAt: '', fromCache: false, queued: { id: 'item-0001' } }
      : listAnswer('N', 1),
  )
})
afterEach(() => {
  delete window.scandesk
  document.body.innerHTML = ''
})

const reads = () => apiCalls(fake).filter((c) => c.op === 'notifications.list')
const messages = () =>
  [...document.querySelectorAll('.el-message')].map((m) => m.textContent?.trim())

describe('a write kept in the outbox', () => {
  it('counts as accepted, says it is queued and refreshes nothing', async () => {
    mountComposable(() => useOperation('notifications.list', {}))
    const { result } = mountComposable(() => useOperationCall())
    await flushPromises()
    const answer = await result.run('notifications.mark_all_read')
    await flushPromises()
    expect(answer.ok && answer.data.queued).toEqual({ id: 'item-0001' })
    expect(reads()).toHaveLength(1)
    expect(messages()).toEqual([QUEUED_MESSAGE])
  })

  it('is no "done" in a resource’s row action, and nothing breaks on its empty answer', async () => {
    const resource = resourceByKey('notifications')!
    const { result } = mountComposable(() => useResourceActions(resource))
    const action = resource.rowActions!.find((a) => a.op === 'notifications.mark_read')!
    await result.rowAction(action, { id: 'ntf-1', attributes: { read: false } })
    await flushPromises()
    expect(messages()).toEqual([QUEUED_MESSAGE])
  })
})
