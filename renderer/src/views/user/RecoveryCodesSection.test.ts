import { afterEach, describe, expect, it, vi } from 'vitest'
import { useFakeApp } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { mountUserSection } from '@/test/userSection'
import RecoveryCodesSection from './RecoveryCodesSection.vue'
import { byTestId, callsOf, click, serveUserApi, userResource, type OpHandler } from './userTestKit'

const CODES = ['k3p9-x2m7', 'q8w4-r5t1', 'z6y2-u9i3']
const fake = useFakeApp()
afterEach(() => {
  vi.restoreAllMocks()
})

async function mountSection(remaining: number, handlers: Record<string, OpHandler> = {}) {
  let left = remaining
  serveUserApi(fake, {
    'user.show': () => ({
      data: userResource({ two_factor_enabled: true, two_factor_method: 'app' }),
    }),
    'user.recovery_codes': () => ({
      data: {
        remaining: left,
        masked_codes: Array.from({ length: left }, (_, i) => `****-**${i}${i}`),
        generated_at: '2030-01-01T00:00:00Z',
      },
    }),
    'user.generate_recovery_codes': () => {
      left = CODES.length
      return { data: { recovery_codes: CODES, generated_at: '2030-01-02T00:00:00Z' } }
    },
    ...handlers,
  })
  await mountUserSection(RecoveryCodesSection)
}

describe('recovery codes', () => {
  it('shows how many unused codes remain, masked', async () => {
    await mountSection(2)
    const summary = byTestId('user-recovery-summary')[0].textContent!
    expect(summary).toContain('2 unused codes')
    expect(summary).toContain('****-**11')
  })

  it('asks before replacing unused codes, then shows the new ones once', async () => {
    await mountSection(2)
    await click('user-recovery-generate')
    expect(callsOf(fake, 'user.generate_recovery_codes')).toHaveLength(0)
    await click('user-recovery-confirm')
    expect(callsOf(fake, 'user.generate_recovery_codes')).toHaveLength(1)

    const shown = byTestId('user-recovery-codes')[0].textContent!
    for (const code of CODES) expect(shown).toContain(code)
    expect(byTestId('user-recovery-warning')[0].textContent).toContain('will not be shown again')
    expect(byTestId('user-recovery-summary')[0].textContent).toContain('3 unused codes')

    await click('user-recovery-done')
    for (const code of CODES) expect(document.body.textContent).not.toContain(code)
    // Nothing brings them back: the summary shows masked codes only.
    expect(callsOf(fake, 'user.generate_recovery_codes')).toHaveLength(1)
  })

  it('saves the codes as a text file through a Blob download', async () => {
    await mountSection(0)
    const blobs: Blob[] = []
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob)
      return 'blob:recovery'
    })
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    let downloaded = ''
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloaded = this.download
    })
    await click('user-recovery-generate')
    await click('user-recovery-save')
    expect(downloaded).toBe('scandesk-recovery-codes-ada_example.com.txt')
    const text = await blobs[0].text()
    for (const code of CODES) expect(text).toContain(code)
  })

  it('explains a refusal when two-factor authentication is off at the service', async () => {
    await mountSection(0, {
      'user.generate_recovery_codes': () =>
        new Fail({ code: 'CONFLICT', status: 409, message: 'two-factor authentication is off' }),
    })
    await click('user-recovery-generate')
    expect(byTestId('user-recovery-error')[0].textContent).toContain(
      'Turn on two-factor authentication first',
    )
    expect(byTestId('user-recovery-codes')).toHaveLength(0)
  })
})
