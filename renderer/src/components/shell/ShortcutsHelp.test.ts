import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mountWithApp } from '@/test/mountApp'
import ShortcutsHelp from './ShortcutsHelp.vue'

let wrapper: ReturnType<typeof mountWithApp> | null = null
beforeEach(() => setActivePinia(createPinia()))
afterEach(() => {
  wrapper?.unmount()
  wrapper = null
  document.body.innerHTML = ''
})

/** The help's lines as "keys: what they do". */
function lines(): string[] {
  const dl = [...document.querySelectorAll('[data-testid="shortcuts-help"] dl')]
  return dl.flatMap((list) =>
    [...list.querySelectorAll('dt')].map(
      (dt) =>
        `${dt.textContent?.replace(/\s+/g, '')}: ${dt.nextElementSibling?.textContent?.trim()}`,
    ),
  )
}

describe('the ? list of keyboard shortcuts', () => {
  it('opens on ? and names the command palette’s Ctrl/Cmd+K among the shortcuts of anywhere', async () => {
    wrapper = mountWithApp(ShortcutsHelp)
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: '?', bubbles: true }))
    await flushPromises()
    expect(lines()).toContain(
      'Ctrl/Cmd+K: Go to anything: screens, saved views, actions and records (in a field too)',
    )
    expect(lines()).toContain('?: Show these shortcuts')
  })
})
