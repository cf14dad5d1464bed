import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import type { AssetContextDocument, AssetRule } from '@contract/intel/asset-context'
import { mountScreen } from '@/test/composables'
import { byTestId, click, errorUnder, inputOf, theTestId } from '@/test/dom'
import { twoAccounts, useFakeApp } from '@/test/fakeApp'
import AssetContextView from './AssetContextView.vue'

let doc: AssetContextDocument
const fake = useFakeApp({
  accounts: twoAccounts,
  store: 'app',
  setup: (fake) => {
    fake.handle('assets.get', () => doc)
    fake.handle(
      'assets.setRules',
      (p: { rules: AssetRule[] }) => (doc = { ...doc, rules: p.rules }),
    )
    fake.handle('assets.set', (p: { place: { id: string }; context: null }) => {
      delete doc.targets[p.place.id]
      return doc
    })
    fake.handle('assets.import', (p: { accountIds: string[]; path?: string }) =>
      p.path
        ? { imported: true, accounts: p.accountIds.length, rules: 1, targets: 0, hosts: 0 }
        : { imported: false, suggestedFolder: '/home/me' },
    )
  },
})
afterEach(() => {
  document.body.innerHTML = ''
})

const rule = (range: string, owner: string): AssetRule => ({
  match: { kind: 'range', range },
  owner,
})
const ruleTexts = () =>
  byTestId('asset-rule').map(
    (r) =>
      `${r.dataset.index}: ${r.querySelector('.asset-context__rule-match')!.textContent!.replace(/\s+/g, ' ').trim()}`,
  )
const rulesSaved = () =>
  fake.calls
    .filter((c) => c.channel === 'assets.setRules')
    .map((c) => (c.payload as { rules: AssetRule[] }).rules)
async function type(id: string, value: string) {
  const input = inputOf(id)
  input.value = value
  input.dispatchEvent(new Event('input'))
  await flushPromises()
  return input
}
const enter = async (input: HTMLElement) => {
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
  await flushPromises()
}
async function open() {
  mountScreen(AssetContextView)
  await flushPromises()
}

describe('the Asset context screen', () => {
  it('adds a rule, refusing a bad range with its field error first', async () => {
    doc = { rules: [], targets: {}, hosts: {} }
    await open()
    expect(theTestId('asset-rules-none').textContent).toContain('No rules yet')
    await click('asset-rule-add')
    const value = await type('asset-rule-value', '10.1.2.3/8')
    await type('asset-owner', 'Payments')
    await enter(value)
    expect(await errorUnder('asset-rule-value')).toBe(
      'has bits set past its /8: the range is 10.0.0.0/8',
    )
    expect(rulesSaved()).toEqual([])
    await enter(await type('asset-rule-value', '10.0.0.0/8'))
    expect(rulesSaved()).toEqual([[rule('10.0.0.0/8', 'Payments')]])
    expect(ruleTexts()).toEqual(['1: Address range 10.0.0.0/8'])
  })

  it('says a rule that sets nothing, and keeps the dialog open', async () => {
    doc = { rules: [], targets: {}, hosts: {} }
    await open()
    await click('asset-rule-add')
    await click('asset-rule-kind-tag')
    await enter(await type('asset-rule-value', 'pci'))
    expect(theTestId('asset-rule-sets').textContent).toContain('This rule sets nothing')
    expect(rulesSaved()).toEqual([])
  })

  it('reorders, edits and removes rules, saving the whole ordered list each time', async () => {
    doc = { rules: [rule('10.0.0.0/8', 'A'), rule('192.0.2.0/24', 'B')], targets: {}, hosts: {} }
    await open()
    byTestId('asset-rule-down')[0]!.click()
    await flushPromises()
    expect(ruleTexts()).toEqual(['1: Address range 192.0.2.0/24', '2: Address range 10.0.0.0/8'])
    byTestId('asset-rule-edit')[1]!.click()
    await flushPromises()
    expect(inputOf('asset-rule-value').value).toBe('10.0.0.0/8')
    await enter(await type('asset-owner', 'Changed'))
    byTestId('asset-rule-remove')[0]!.click()
    await flushPromises()
    expect(rulesSaved()).toEqual([
      [rule('192.0.2.0/24', 'B'), rule('10.0.0.0/8', 'A')],
      [rule('192.0.2.0/24', 'B'), rule('10.0.0.0/8', 'Changed')],
      [rule('10.0.0.0/8', 'Changed')],
    ])
  })

  it('lists the explicit settings and clears one', async () => {
    doc = { rules: [], targets: { 'tgt-001': { criticality: 'crown-jewel' } }, hosts: {} }
    await open()
    expect(theTestId('asset-setting').textContent).toContain('Target tgt-001')
    expect(theTestId('asset-setting').textContent).toContain('Crown jewel')
    await click('asset-setting-clear')
    expect(fake.calls.find((c) => c.channel === 'assets.set')!.payload).toEqual({
      accountId: 'acct-aaaa',
      place: { kind: 'target', id: 'tgt-001' },
      context: null,
    })
    expect(byTestId('asset-setting')).toHaveLength(0)
  })

  it('imports a file to this account and the ones ticked (browser mode: a typed path)', async () => {
    doc = { rules: [], targets: {}, hosts: {} }
    await open()
    const other = document.querySelector<HTMLInputElement>(
      '[data-account="acct-bbbb"] input[type="checkbox"]',
    )!
    other.click()
    await flushPromises()
    await click('asset-import')
    expect(inputOf('asset-path').value).toBe('/home/me/')
    await type('asset-path', '/home/me/standard.json')
    await click('asset-path-go')
    const imports = fake.calls.filter((c) => c.channel === 'assets.import').map((c) => c.payload)
    expect(imports).toEqual([
      { accountIds: ['acct-aaaa', 'acct-bbbb'] },
      { accountIds: ['acct-aaaa', 'acct-bbbb'], path: '/home/me/standard.json' },
    ])
    expect(byTestId('asset-path')).toHaveLength(0)
  })
})
