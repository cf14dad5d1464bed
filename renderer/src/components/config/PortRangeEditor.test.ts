import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { resourceByKey } from '@/resources'
import { apiCalls, mountScreen, useTwoAccounts } from '@/test/composables'
import { byTestId, click, theTestId } from '@/test/dom'
import { answer, serveAnalyst, type ApiAnswers, type ApiCall } from '@/test/fakeApi'
import { invalid } from '@/test/fakeScandesk'
import { portListRecord } from '@/test/fixtures'
import PortRangeEditor from './PortRangeEditor.vue'

type Call = ApiCall
const STORED = [
  { id: 'rng-1', start: 1, end: 1024, protocol: 'tcp' },
  { id: 'rng-2', start: 53, end: 53, protocol: 'udp' },
]
const portList = (ranges = STORED) => portListRecord({ ranges })

const serve = (over: ApiAnswers = {}): void =>
  serveAnalyst(
    fake,
    {
      'port_lists.show': () => answer(portList()),
      'port_lists.add_range': () => answer(portList()),
      'port_lists.delete_range': () => answer(portList()),
    },
    over,
  )

const fake = useTwoAccounts(() => {
  serve()
})

const sent = (op: string) => apiCalls(fake).filter((c) => c.op === op) as Call[]
const problems = () =>
  byTestId('range-problem').map((li) => li.textContent?.replace(/\s+/g, ' ').trim())

async function mountEditor() {
  mountScreen(PortRangeEditor, { props: { resource: resourceByKey('port_lists')!, id: 'prt-1' } })
  await flushPromises()
}

async function typeRanges(text: string): Promise<void> {
  const area = document.querySelector<HTMLTextAreaElement>('textarea[data-testid="range-text"]')!
  area.value = text
  area.dispatchEvent(new Event('input'))
  await flushPromises()
}

describe('the port range editor', () => {
  it('lists the stored ranges with their total', async () => {
    await mountEditor()
    expect(byTestId('range-row').map((r) => r.dataset.range)).toEqual(['T:1-1024', 'U:53'])
    expect(theTestId('range-total').textContent).toContain('1,025 ports in 2 ranges')
  })

  it('sends nothing for bad syntax and names each refused item with its line', async () => {
    await mountEditor()
    await typeRanges('T:2000,X:1\nT:0-5\nT:80\nU:161-160')
    expect(problems()).toEqual([
      'Line 1, “X:1”: The protocol is "X"; write T: for TCP or U: for UDP.',
      'Line 2, “T:0-5”: 0 is not a port; ports are 1–65535.',
      'Line 3, “T:80”: Overlaps T:1-1024, already in this port list.',
      'Line 4, “U:161-160”: The range starts at 161 but ends at 160; write 160-161.',
    ])
    expect(theTestId<HTMLButtonElement>('range-add').disabled).toBe(true)
    // Even a submit that gets past the button (Enter, a script) sends nothing.
    theTestId('range-editor').querySelector('form')!.dispatchEvent(new Event('submit'))
    await flushPromises()
    expect(sent('port_lists.add_range')).toHaveLength(0)
  })

  it('asks for something when the text is empty, sending nothing', async () => {
    await mountEditor()
    expect(problems()).toEqual([])
    await click('range-add')
    expect(problems()).toEqual(['Line 1: Write at least one range, e.g. T:1-1024,U:53.'])
    expect(sent('port_lists.add_range')).toHaveLength(0)
  })

  it('adds each range of a good text and empties it', async () => {
    await mountEditor()
    await typeRanges('T:8080-8081, U:161')
    expect(theTestId('range-preview').textContent).toContain('Adds 2 ranges (3 ports)')
    await click('range-add')
    expect(sent('port_lists.add_range').map((c) => c.input)).toEqual([
      { path: { id: 'prt-1' }, body: { start: 8080, end: 8081, protocol: 'tcp' } },
      { path: { id: 'prt-1' }, body: { start: 161, end: 161, protocol: 'udp' } },
    ])
    expect(
      document.querySelector<HTMLTextAreaElement>('textarea[data-testid="range-text"]')!.value,
    ).toBe('')
  })

  it('stops at a refused range, says what was added, and keeps the rest to fix', async () => {
    serve({
      'port_lists.add_range': (p) =>
        (p.input?.body as { start: number }).start === 9000
          ? invalid({ start: ['overlaps tcp 8990–9010 (rng-7)'] }, 'The range could not be added.')
          : answer(portList()),
    })
    await mountEditor()
    await typeRanges('T:8443\nT:9000,U:500')
    await click('range-add')
    expect(sent('port_lists.add_range')).toHaveLength(2)
    expect(theTestId('range-failure').textContent).toContain(
      'T:9000 was not added: The range could not be added. overlaps tcp 8990–9010 (rng-7) 1 range was added before it.',
    )
    expect(
      document.querySelector<HTMLTextAreaElement>('textarea[data-testid="range-text"]')!.value,
    ).toBe('T:9000,U:500')
  })

  it('deletes a range only once confirmed', async () => {
    await mountEditor()
    byTestId('range-delete')[1].click()
    await flushPromises()
    expect(theTestId('range-delete-confirm-text').textContent).toBe(
      'Delete UDP 53 from “Web servers”?',
    )
    expect(sent('port_lists.delete_range')).toHaveLength(0)
    await click('range-delete-confirm')
    expect(sent('port_lists.delete_range').map((c) => c.input)).toEqual([
      { path: { id: 'prt-1', range_id: 'rng-2' } },
    ])
  })

  it('offers no add or delete where the user may only read port lists', async () => {
    serve({
      'user.permissions': () =>
        answer({ role: 'viewer', permissions: ['port_lists.read', 'targets.write'] }),
    })
    await mountEditor()
    expect(byTestId('range-row')).toHaveLength(2)
    expect(byTestId('range-delete')).toHaveLength(0)
    expect(byTestId('range-text')).toHaveLength(0)
  })

  it('waits for the service to add or delete while “Work offline” is on, keeping the text', async () => {
    await mountEditor()
    await typeRanges('T:8080')
    fake.emit('connectivity.mode', { workOffline: true, network: true })
    await flushPromises()
    expect(theTestId('range-offline').textContent).toContain('“Work offline” is on')
    expect(theTestId<HTMLButtonElement>('range-add').disabled).toBe(true)
    expect(byTestId<HTMLButtonElement>('range-delete').every((b) => b.disabled)).toBe(true)
    theTestId('range-add').closest('form')!.requestSubmit()
    await flushPromises()
    expect(sent('port_lists.add_range')).toHaveLength(0)
    expect(
      document.querySelector<HTMLTextAreaElement>('textarea[data-testid="range-text"]')!.value,
    ).toBe('T:8080')
  })
})
