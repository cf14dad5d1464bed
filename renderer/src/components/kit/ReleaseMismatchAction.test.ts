import { describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import type { AccountView } from '@contract/accounts'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import { byTestId, click, settle } from '@/test/dom'
import ReadError from './ReadError.vue'

const fake = useFakeApp()

const mismatch = {
  code: 'RELEASE_MISMATCH' as const,
  status: 404,
  message: 'The service does not offer “List advanced reports”, which release latest has.',
}

describe('a read the service lacks the operation of', () => {
  it('offers to detect the release and, on the user’s word, sets the account to it', async () => {
    fake.handle('accounts.detectRelease', () => ({ release: '5.3.0', evidence: ['probe'] }))
    fake.handle(
      'accounts.update',
      (p: { accountId: string; release: string }) =>
        ({
          id: p.accountId,
          release: p.release,
        }) as unknown as AccountView,
    )
    mountWithApp(ReadError, { props: { error: mismatch } })
    await flushPromises()
    await click('release-detect')
    await settle()
    expect(byTestId('release-detected')[0].textContent).toContain('5.3.0')
    expect(fake.calls.filter((c) => c.channel === 'accounts.update')).toHaveLength(0)
    await click('release-use')
    await settle()
    const updates = fake.calls.filter((c) => c.channel === 'accounts.update')
    expect(updates.map((c) => (c.payload as { release: string }).release)).toEqual(['5.3.0'])
  })

  it('says so when the service runs the release the account is set to', async () => {
    fake.handle('accounts.detectRelease', () => ({ release: 'latest', evidence: [] }))
    mountWithApp(ReadError, { props: { error: mismatch } })
    await flushPromises()
    await click('release-detect')
    await settle()
    expect(byTestId('release-problem')[0].textContent).toContain('lacks this operation')
    expect(byTestId('release-use')).toHaveLength(0)
  })

  it('shows only Retry for an ordinary missing record', async () => {
    mountWithApp(ReadError, {
      props: {
        error: {
          code: 'NOT_FOUND',
          status: 404,
          message: 'The service could not find that record.',
        },
      },
    })
    await flushPromises()
    expect(byTestId('resource-retry')).toHaveLength(1)
    expect(byTestId('release-detect')).toHaveLength(0)
  })
})
