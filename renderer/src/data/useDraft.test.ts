import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { mountComposable, switchAccount, withTwoAccounts } from '@/test/composables'
import { serveDrafts, type StoredDrafts } from '@/test/fakeDrafts'
import { Fail, type FakeScandesk } from '@/test/fakeScandesk'
import { useDraft } from './useDraft'

const wizard = z.strictObject({ step: z.number().int(), hosts: z.string() })

let fake: FakeScandesk
let stored: StoredDrafts
let saveGate: Promise<void> | null
beforeEach(() => {
  fake = withTwoAccounts()
  saveGate = null
  stored = serveDrafts(fake, {
    savedAt: (n) => `2026-11-23T10:00:0${n}.000Z`,
    gate: () => saveGate,
  })
})
afterEach(() => {
  delete window.scandesk
  document.body.innerHTML = ''
})

const saves = () => fake.calls.filter((c) => c.channel === 'drafts.save')

describe('a draft kept on this computer', () => {
  it('offers the account’s stored draft, and none that its schema no longer accepts', async () => {
    stored['acct-aaaa'] = { data: { step: 3, hosts: '10.0.0.1' }, savedAt: 'then' }
    stored['acct-bbbb'] = { data: { step: 'three' }, savedAt: 'then' }
    const { result: draft } = mountComposable(() => useDraft('scan-wizard', wizard))
    await flushPromises()
    expect(draft.value.value).toEqual({ step: 3, hosts: '10.0.0.1' })
    await switchAccount('acct-bbbb')
    expect(draft.loaded.value).toBe(true)
    expect(draft.value.value).toBeNull()
  })

  it('saves every change, but while one save is on its way only the newest waits', async () => {
    const { result: draft } = mountComposable(() => useDraft('scan-wizard', wizard))
    await flushPromises()
    let open!: () => void
    saveGate = new Promise((r) => (open = r))
    expect(draft.saving.value).toBe(false)
    void draft.save({ step: 1, hosts: 'a' })
    void draft.save({ step: 1, hosts: 'ab' })
    const last = draft.save({ step: 1, hosts: 'abc' })
    // saving until the newest value has landed, not merely the first
    expect(draft.saving.value).toBe(true)
    open()
    await last
    await flushPromises()
    expect(draft.saving.value).toBe(false)
    expect(saves().map((c) => (c.payload as { data: { hosts: string } }).data.hosts)).toEqual([
      'a',
      'abc',
    ])
    expect(stored['acct-aaaa'].data).toEqual({ step: 1, hosts: 'abc' })
    expect(draft.savedAt.value).toBe(stored['acct-aaaa'].savedAt)
    // A later change starts a new round.
    await draft.save({ step: 2, hosts: 'abc' })
    expect(stored['acct-aaaa'].data).toEqual({ step: 2, hosts: 'abc' })
  })

  it('writes to the account it was loaded for, and says when a save failed', async () => {
    const { result: draft } = mountComposable(() => useDraft('scan-wizard', wizard))
    await flushPromises()
    await draft.save({ step: 1, hosts: 'x' })
    await switchAccount('acct-bbbb')
    fake.handle('drafts.save', () => new Fail({ code: 'INTERNAL', message: 'disk full' }))
    await draft.save({ step: 4, hosts: 'y' })
    expect(saves().at(-1)?.payload).toMatchObject({ accountId: 'acct-bbbb' })
    expect(draft.error.value?.message).toBe('disk full')
    expect(stored['acct-aaaa'].data).toEqual({ step: 1, hosts: 'x' })
    expect(draft.value.value).toEqual({ step: 4, hosts: 'y' }) // still on screen
  })

  it('forgets the draft when cleared', async () => {
    const { result: draft } = mountComposable(() => useDraft('scan-wizard', wizard))
    await flushPromises()
    await draft.save({ step: 5, hosts: 'z' })
    await draft.clear()
    expect(stored['acct-aaaa']).toBeUndefined()
    expect(draft.value.value).toBeNull()
  })
})
