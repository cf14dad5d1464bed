import { mount } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, nextTick, ref } from 'vue'
import { useListKeys } from './listKeys'
import { useRowSelection, type RowSelection } from './rowSelection'
import { shortcutSilenced } from './shortcuts'

const ids = ref(['a', 'b', 'c'])
const mounted: { unmount(): void }[] = []

function press(key: string, init: KeyboardEventInit = {}, on: EventTarget = document) {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init })
  on.dispatchEvent(event)
  return event
}

/** A list whose keys are on (or not), with what they did. */
function list(enabled = () => true) {
  const opened: string[] = []
  const searched = vi.fn()
  let keys!: ReturnType<typeof useListKeys>
  let selection!: RowSelection
  const wrapper = mount(
    defineComponent({
      setup() {
        selection = useRowSelection(() => ids.value)
        keys = useListKeys({
          ids: () => ids.value,
          enabled,
          open: (id) => opened.push(id),
          selection: () => selection,
          focusSearch: searched,
        })
        return () => null
      },
    }),
    { attachTo: document.body },
  )
  mounted.push(wrapper)
  return { opened, searched, keys, selection, wrapper }
}

afterEach(() => {
  for (const w of mounted.splice(0)) w.unmount()
  document.body.innerHTML = ''
  ids.value = ['a', 'b', 'c']
})

describe('the keys of a list', () => {
  it('move a cursor with j/k and the arrows, and open its row with Enter', () => {
    const { keys, opened } = list()
    expect(press('Enter').defaultPrevented).toBe(false)
    press('j')
    expect(keys.cursor.value).toBe('a')
    expect(press('j').defaultPrevented).toBe(true)
    press('ArrowDown')
    press('ArrowDown')
    expect(keys.cursor.value).toBe('c')
    press('k')
    press('ArrowUp')
    press('ArrowUp')
    expect(keys.cursor.value).toBe('a')
    press('j')
    press('Enter')
    expect(opened).toEqual(['b'])
  })

  it('toggle the cursor’s row with x and extend to it with Shift+x; / searches', () => {
    const { selection, searched } = list()
    press('j')
    press('x')
    expect(selection.ids.value).toEqual(['a'])
    press('j')
    press('j')
    press('X', { shiftKey: true })
    expect(selection.ids.value).toEqual(['a', 'b', 'c'])
    press('x')
    expect(selection.ids.value).toEqual(['a', 'b'])
    press('/')
    expect(searched).toHaveBeenCalledOnce()
  })

  it('are silent while the user types in a field', () => {
    const { keys, selection, searched } = list()
    press('j')
    const input = document.createElement('input')
    document.body.appendChild(input)
    input.focus()
    for (const key of ['j', 'k', 'x', '/', 'Enter']) press(key, {}, input)
    const area = document.createElement('div')
    area.setAttribute('contenteditable', 'true')
    document.body.appendChild(area)
    press('j', {}, area)
    expect(keys.cursor.value).toBe('a')
    expect(selection.count.value).toBe(0)
    expect(searched).not.toHaveBeenCalled()
    expect(press('j', {}, input).defaultPrevented).toBe(false)
  })

  it('are silent while a dialog is open, and work again once it is hidden', async () => {
    const { keys, opened } = list()
    press('j')
    const overlay = document.createElement('div')
    overlay.className = 'el-overlay'
    document.body.appendChild(overlay)
    press('j')
    press('Enter')
    expect(keys.cursor.value).toBe('a')
    expect(opened).toEqual([])
    overlay.style.display = 'none'
    press('j')
    expect(keys.cursor.value).toBe('b')
  })

  it('are silent with Ctrl, Cmd or Alt, and while the list is not the page’s', () => {
    let on = false
    const { keys } = list(() => on)
    press('j')
    expect(keys.cursor.value).toBeNull()
    on = true
    press('j', { ctrlKey: true })
    press('j', { metaKey: true })
    press('j', { altKey: true })
    expect(keys.cursor.value).toBeNull()
  })

  it('leave Enter to a focused button, and drop the cursor when its row goes', async () => {
    const { keys, opened } = list()
    press('j')
    const button = document.createElement('button')
    document.body.appendChild(button)
    press('Enter', {}, button)
    expect(opened).toEqual([])
    ids.value = ['b', 'c']
    await nextTick()
    expect(keys.cursor.value).toBeNull()
  })

  it('stop when the list leaves the page', () => {
    const { keys, wrapper } = list()
    wrapper.unmount()
    mounted.pop()
    press('j')
    expect(keys.cursor.value).toBeNull()
  })
})

describe('a silenced key', () => {
  it('is one typed in a field, an editable element or a select', () => {
    for (const tag of ['input', 'textarea', 'select']) {
      const el = document.createElement(tag)
      document.body.appendChild(el)
      const event = new KeyboardEvent('keydown', { key: 'j', bubbles: true })
      Object.defineProperty(event, 'target', { value: el })
      expect(shortcutSilenced(event)).toBe(true)
    }
    expect(shortcutSilenced(new KeyboardEvent('keydown', { key: 'j' }))).toBe(false)
  })
})
