import { mount } from '@vue/test-utils'
import ElementPlus from 'element-plus'
import { nextTick } from 'vue'
import { describe, expect, it } from 'vitest'
import TrustConfirmDialog from '@/components/accounts/TrustConfirmDialog.vue'
import { useFakeBridge } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { useAccountsStore } from './accounts'
import { useTrustStore } from './trust'

const fake = useFakeBridge()
const confirmation = {
  lines: ['Trust this certificate authority for scan.example.test: “Acme CA”, SHA-256 AB:CD.'],
  phrase: 'trust scan.example.test',
}

/** accounts.update asks for the phrase until it gets it, then saves. */
function serviceAskingForTrust(): unknown[] {
  const sent: unknown[] = []
  fake.handle('accounts.update', (p: { trustConfirmation?: string }) => {
    sent.push(p)
    if (p.trustConfirmation !== 'trust scan.example.test')
      return new Fail({ code: 'CONFIRMATION_REQUIRED', message: 'Type it.', confirmation })
    return { id: 'acct-aaaa', label: 'Acme', hasCaBundle: true }
  })
  return sent
}

describe('confirming a change of trust in browser mode', () => {
  it('asks the user for the phrase and sends the change again with it', async () => {
    const sent = serviceAskingForTrust()
    const trust = useTrustStore()
    const saving = useAccountsStore().update({ accountId: 'acct-aaaa', caBundle: 'PEM' })
    await expect.poll(() => trust.pending?.phrase).toBe('trust scan.example.test')
    trust.answer('trust scan.example.test')
    const result = await saving
    expect(result.ok).toBe(true)
    expect(sent).toEqual([
      { accountId: 'acct-aaaa', caBundle: 'PEM' },
      { accountId: 'acct-aaaa', caBundle: 'PEM', trustConfirmation: 'trust scan.example.test' },
    ])
  })

  it('answers the refusal as it came when the user cancels, sending nothing more', async () => {
    const sent = serviceAskingForTrust()
    const trust = useTrustStore()
    const saving = useAccountsStore().update({ accountId: 'acct-aaaa', caBundle: 'PEM' })
    await expect.poll(() => trust.pending).not.toBeNull()
    trust.answer(null)
    const result = await saving
    expect(result.ok ? null : result.error.code).toBe('CONFIRMATION_REQUIRED')
    expect(sent).toHaveLength(1)
  })

  it('lists what is trusted and enables Trust only for the exact phrase', async () => {
    const wrapper = mount(TrustConfirmDialog, {
      global: { plugins: [ElementPlus] },
      attachTo: document.body,
    })
    const trust = useTrustStore()
    const answer = trust.ask(confirmation)
    await nextTick()
    await nextTick()
    const body = document.body
    expect(body.querySelector('[data-testid="trust-line"]')?.textContent).toContain('Acme CA')
    const button = () => body.querySelector<HTMLButtonElement>('[data-testid="trust-confirm"]')!
    const input = body.querySelector<HTMLInputElement>(
      '[data-testid="trust-typed"] input, input[data-testid="trust-typed"]',
    )!
    expect(button().disabled).toBe(true)
    input.value = 'trust evil.example.test'
    input.dispatchEvent(new Event('input'))
    await nextTick()
    expect(button().disabled).toBe(true)
    input.value = 'Trust scan.example.test'
    input.dispatchEvent(new Event('input'))
    await nextTick()
    expect(button().disabled).toBe(false)
    button().click()
    expect(await answer).toBe('Trust scan.example.test')
    wrapper.unmount()
  })
})
