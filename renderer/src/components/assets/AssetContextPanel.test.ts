import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import type { AssetContextDocument } from '@contract/intel/asset-context'
import { mountScreen } from '@/test/composables'
import { click, errorUnder, inputOf, settle, theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import AssetContextPanel from './AssetContextPanel.vue'

let doc: AssetContextDocument
const record = (id: string, attributes: Record<string, unknown>) => ({
  data: { data: { id, type: 'x', attributes } },
  fetchedAt: '2030-01-10T00:00:00Z',
  fromCache: false,
})
const fake = useFakeApp({
  store: 'app',
  setup: (fake) => {
    fake.handle('assets.get', () => doc)
    fake.handle(
      'assets.set',
      (p: { place: { kind: string; id?: string; address?: string }; context: object | null }) => {
        if ((p.context as { owner?: string } | null)?.owner === 'bad')
          return new Fail({
            code: 'VALIDATION',
            message: 'The request is not valid.',
            fieldErrors: { 'context.owner': ['holds a control character'] },
          })
        const map = p.place.kind === 'target' ? doc.targets : doc.hosts
        const key = (p.place.id ?? p.place.address)!
        if (p.context) map[key] = p.context
        else delete map[key]
        return doc
      },
    )
    fake.handle('api.call', (p: { op: string; input: { path: { id: string } } }) =>
      p.op === 'hosts.details'
        ? record(p.input.path.id, {
            ip: '10.5.0.3',
            hostname: 'db1.pay.example.com',
            target_id: 'tgt-001',
          })
        : record(p.input.path.id, { name: 'Payment API', address: '10.5.0.0/29', tags: ['pci'] }),
    )
  },
})
afterEach(() => {
  document.body.innerHTML = ''
})

const text = (id: string) => theTestId(id).textContent?.replace(/\s+/g, ' ').trim() ?? ''
async function mountPanel(op: 'targets.show' | 'hosts.details', id: string) {
  mountScreen(AssetContextPanel, { props: { id, op } })
  await flushPromises()
}
async function typeOwner(value: string) {
  const input = inputOf('asset-owner')
  input.value = value
  input.dispatchEvent(new Event('input'))
  await flushPromises()
  return input
}

describe('the asset context on a target’s and a host’s page', () => {
  it('says each field’s value and where it comes from, unknown where nothing says it', async () => {
    doc = {
      rules: [
        { match: { kind: 'range', range: '10.0.0.0/8' }, exposure: 'internal' },
        { match: { kind: 'tag', tag: 'PCI' }, criticality: 'high', exposure: 'internet-facing' },
      ],
      targets: { 'tgt-001': { owner: 'Payments' } },
      hosts: {},
    }
    await mountPanel('targets.show', 'tgt-001')
    expect(text('asset-criticality-value')).toBe('High (by rule 2: tag PCI)')
    expect(text('asset-exposure-value')).toBe('Internal (by rule 1: 10.0.0.0/8)')
    expect(text('asset-owner-value')).toBe('Payments (set here)')
    doc.rules = []
    doc.targets = {}
  })

  it('a host reads its target’s settings and tags, and its own address’s setting first', async () => {
    doc = {
      rules: [
        { match: { kind: 'name', pattern: '*.PAY.example.com' }, criticality: 'crown-jewel' },
      ],
      targets: { 'tgt-001': { owner: 'Payments', exposure: 'internal' } },
      hosts: { '10.5.0.3': { exposure: 'internet-facing' } },
    }
    await mountPanel('hosts.details', 'hst-9')
    expect(text('asset-criticality-value')).toBe('Crown jewel (by rule 1: *.PAY.example.com)')
    expect(text('asset-exposure-value')).toBe('Internet-facing (set here)')
    expect(text('asset-owner-value')).toBe('Payments (set on the target)')
  })

  it('edits in place: Enter saves what is set here, Esc cancels, field errors under the field', async () => {
    doc = { rules: [], targets: {}, hosts: {} }
    await mountPanel('targets.show', 'tgt-001')
    expect(text('asset-owner-value')).toBe('unknown')
    await click('asset-edit')
    const input = await typeOwner('  Platform team ')
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
    await flushPromises()
    const sets = fake.calls.filter((c) => c.channel === 'assets.set').map((c) => c.payload)
    expect(sets).toEqual([
      {
        accountId: 'acct-aaaa',
        place: { kind: 'target', id: 'tgt-001' },
        context: { owner: 'Platform team' },
      },
    ])
    expect(text('asset-owner-value')).toBe('Platform team (set here)')

    await click('asset-edit')
    expect(inputOf('asset-owner').value).toBe('Platform team')
    const bad = await typeOwner('bad')
    bad.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
    await flushPromises()
    expect(await errorUnder('asset-owner')).toBe('holds a control character')

    await typeOwner('Never saved')
    document.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Escape', code: 'Escape', bubbles: true }),
    )
    await flushPromises()
    expect(fake.calls.filter((c) => c.channel === 'assets.set')).toHaveLength(2)
    expect(text('asset-owner-value')).toBe('Platform team (set here)')
    await settle()
    const overlay = theTestId('asset-edit-dialog').closest<HTMLElement>('.el-overlay')!
    expect(overlay.style.display).toBe('none')
  })
})
