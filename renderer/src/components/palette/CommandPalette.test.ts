import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import { createMemoryHistory, createRouter } from 'vue-router'
import { useAccountDialogsStore } from '@/stores/accountDialogs'
import { useRecentRecordsStore } from '@/stores/recentRecords'
import { useTwoAccounts } from '@/test/composables'
import { byTestId, theTestId } from '@/test/dom'
import { mountWithApp } from '@/test/mountApp'
import CommandPalette from './CommandPalette.vue'
import PaletteHost from './PaletteHost.vue'

const empty = { data: { data: [] }, fetchedAt: '2030-01-01T00:00:00.000Z', fromCache: false }

function router() {
  const blank = { render: () => null }
  return createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/targets/:id', name: 'targets-detail', component: blank },
      { path: '/scans/new', name: 'scan-wizard', component: blank },
      { path: '/:rest(.*)*', name: 'any', component: blank },
    ],
  })
}

const mounted: { unmount: () => void }[] = []
afterEach(() => {
  while (mounted.length) mounted.pop()!.unmount()
})

/** The palette, open, in a page that holds its v-model. */
async function openPalette() {
  const r = router()
  await r.push('/dashboard')
  const open = ref(true)
  const Page = defineComponent({
    setup: () => () =>
      h(CommandPalette, {
        modelValue: open.value,
        'onUpdate:modelValue': (v: boolean) => (open.value = v),
      }),
  })
  mounted.push(mountWithApp(Page, { global: { plugins: [r] } }))
  await flushPromises()
  return { router: r, open, input: theTestId<HTMLInputElement>('palette-input') }
}

function key(input: HTMLElement, name: string, init: KeyboardEventInit = {}) {
  input.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, ...init }))
  return flushPromises()
}

const activeLabel = (input: HTMLInputElement) =>
  document
    .getElementById(input.getAttribute('aria-activedescendant') ?? '')
    ?.querySelector('.command-palette__label')?.textContent

describe('the command palette, by keyboard', () => {
  useTwoAccounts((fake) => fake.handle('api.call', () => empty))

  it('is a combobox whose active option is named by aria-activedescendant', async () => {
    const { input } = await openPalette()
    expect(document.activeElement).toBe(input)
    expect(input.getAttribute('role')).toBe('combobox')
    expect(input.getAttribute('aria-controls')).toBe('palette-listbox')
    const options = byTestId('palette-option')
    expect(options.length).toBeGreaterThan(3)
    expect(input.getAttribute('aria-activedescendant')).toBe(options[0].id)
    expect(options[0].getAttribute('aria-selected')).toBe('true')
    expect(options[1].getAttribute('aria-selected')).toBe('false')
    expect(theTestId('palette').getAttribute('role')).toBe('dialog')
  })

  it('moves with the arrows and opens the chosen screen with Enter, closing', async () => {
    const { input, router, open } = await openPalette()
    // Nothing opened yet: the actions first, then the screens.
    expect(activeLabel(input)).toBe('New scan…')
    await key(input, 'ArrowDown')
    expect(activeLabel(input)).toBe('New questionnaire…')
    await key(input, 'ArrowUp')
    await key(input, 'ArrowUp')
    // Up from the first goes round to the last option.
    expect(activeLabel(input)).toBe('Outbox')
    await key(input, 'ArrowUp')
    expect(activeLabel(input)).toBe('Downloaded files')
    await key(input, 'Enter')
    expect(router.currentRoute.value.path).toBe('/library')
    expect(open.value).toBe(false)
    expect(byTestId('palette')).toHaveLength(0)
  })

  it('runs an action with Enter: “Add account…” opens the switcher’s dialog', async () => {
    const { input } = await openPalette()
    input.value = 'add account'
    input.dispatchEvent(new Event('input'))
    await flushPromises()
    expect(activeLabel(input)).toBe('Add account…')
    await key(input, 'Enter')
    expect(useAccountDialogsStore().adding).toEqual({})
  })

  it('closes on Esc without going anywhere', async () => {
    const { input, router, open } = await openPalette()
    await key(input, 'Escape')
    expect(open.value).toBe(false)
    expect(router.currentRoute.value.path).toBe('/dashboard')
  })
})

describe('the palette’s host', () => {
  useTwoAccounts((fake) => fake.handle('api.call', () => empty))

  it('loads the palette on the first Ctrl+K and notes the record pages opened', async () => {
    const r = router()
    await r.push('/dashboard')
    mounted.push(mountWithApp(PaletteHost, { global: { plugins: [r] } }))
    await flushPromises()
    expect(byTestId('palette')).toHaveLength(0)
    await r.push('/targets/tgt-7')
    expect(useRecentRecordsStore().of('acct-aaaa')).toEqual([{ kind: 'targets', id: 'tgt-7' }])
    expect(useRecentRecordsStore().of('acct-bbbb')).toEqual([])
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, bubbles: true }))
    await expect.poll(() => byTestId('palette').length).toBe(1)
    expect(byTestId('palette-group').map((g) => g.dataset.group)[0]).toBe('recent')
  })

  it('does not open over another dialog', async () => {
    const r = router()
    await r.push('/dashboard')
    mounted.push(mountWithApp(PaletteHost, { global: { plugins: [r] } }))
    const other = document.createElement('div')
    other.setAttribute('role', 'dialog')
    other.setAttribute('aria-modal', 'true')
    other.getClientRects = () => [new DOMRect(0, 0, 10, 10)] as unknown as DOMRectList
    document.body.appendChild(other)
    await flushPromises()
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, bubbles: true }))
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(byTestId('palette')).toHaveLength(0)
    other.remove()
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, bubbles: true }))
    await expect.poll(() => byTestId('palette').length).toBe(1)
  })
})
