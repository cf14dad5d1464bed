import { flushPromises, mount } from '@vue/test-utils'
import ElementPlus from 'element-plus'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { RowActionDef } from '@/resources'
import RowActionsMenu from './RowActionsMenu.vue'

const ACTIONS = [{ op: 'notifications.mark_read', label: 'Mark read' }] as unknown as RowActionDef[]

const mounted: { unmount(): void }[] = []
afterEach(() => {
  for (const w of mounted.splice(0)) w.unmount()
})

function menu(open: boolean) {
  const wrapper = mount(RowActionsMenu, {
    props: { actions: ACTIONS, blocked: () => null, open },
    global: { plugins: [ElementPlus] },
    attachTo: document.body,
  })
  mounted.push(wrapper)
  return wrapper
}
const button = () => document.querySelector<HTMLElement>('[data-testid="row-actions"]')!

describe('a row’s actions menu', () => {
  it('opens once made for the click that asked, takes the focus and says so', async () => {
    const w = menu(true)
    await vi.waitFor(() => expect(button().getAttribute('aria-expanded')).toBe('true'))
    expect(document.activeElement).toBe(button())
    expect(w.emitted('opened')).toHaveLength(1)
  })

  it('is drawn closed when made again where its record moved, and leaves the focus alone', async () => {
    const w = menu(false)
    await flushPromises()
    // longer than el-dropdown's delay before it shows (150 ms), which the other case waits out
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(button().getAttribute('aria-expanded')).not.toBe('true')
    expect(document.activeElement).toBe(document.body)
    expect(w.emitted('opened')).toBeUndefined()
  })
})
