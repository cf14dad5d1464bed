// The keys of every form dialog, over the kit's shells (issue 36 §5): Enter submits from a field
// but not from a multi-line one (Ctrl/Cmd+Enter does), nor during an IME composition, nor from a
// button, nor while the submit is in flight or the action is disabled; Esc cancels, but not while
// in flight; a form inside a dialog submits once, not twice.
import { flushPromises, type VueWrapper } from '@vue/test-utils'
import { ElDialog } from 'element-plus'
import { describe, expect, it } from 'vitest'
import { defineComponent, h, ref, type VNode } from 'vue'
import { apiCalls, mountFormDialog, mountScreen, useTwoAccounts } from '@/test/composables'
import { formSettled, theTestId } from '@/test/dom'
import ActionDialog from './ActionDialog.vue'
import OperationFormDialog from './OperationFormDialog.vue'
import SchemaFormShell from './SchemaFormShell.vue'

const fake = useTwoAccounts()

function key(
  target: Element,
  init: KeyboardEventInit & { keyCode?: number } = {},
  name = 'Enter',
): KeyboardEvent {
  const event = new KeyboardEvent('keydown', {
    key: name,
    bubbles: true,
    cancelable: true,
    ...init,
  })
  if (init.keyCode !== undefined) Object.defineProperty(event, 'keyCode', { value: init.keyCode })
  target.dispatchEvent(event)
  return event
}

/** An ActionDialog with a line, a text area, a check box and a button of its own in its body. */
/** Mounts a component that draws `render` (the shells with bodies of the test's own). */
const mountHost = (render: () => VNode) => mountScreen(defineComponent({ setup: () => render }))

let mounted: VueWrapper | null = null
const findDialog = () => mounted!.findComponent(ElDialog)

function mountActionDialog(props: Record<string, unknown> = {}) {
  const submits = ref(0)
  const open = ref(true)
  mounted = mountHost(() =>
    h(
      ActionDialog,
      {
        title: 'Rename',
        submitLabel: 'Save',
        testId: 'dialog',
        modelValue: open.value,
        'onUpdate:modelValue': (v: boolean) => (open.value = v),
        onSubmit: () => submits.value++,
        ...props,
      },
      () => [
        h('input', { 'data-testid': 'line' }),
        h('textarea', { 'data-testid': 'lines' }),
        h('input', { type: 'checkbox', 'data-testid': 'box' }),
        h('button', { type: 'button', 'data-testid': 'own-button' }, 'Pick'),
      ],
    ),
  )
  return { submits, open }
}

describe('Enter in a form dialog', () => {
  it('submits once from a field or a check box, and marks the key handled', async () => {
    const { submits } = mountActionDialog()
    await flushPromises()
    const event = key(theTestId('line'))
    expect(submits.value).toBe(1)
    // Handled: the browser's own form submission does not send it a second time.
    expect(event.defaultPrevented).toBe(true)
    key(theTestId('box'))
    expect(submits.value).toBe(2)
  })

  it('starts a new line in a text area, where Ctrl or Cmd+Enter submits', async () => {
    const { submits } = mountActionDialog()
    await flushPromises()
    expect(key(theTestId('lines')).defaultPrevented).toBe(false)
    expect(submits.value).toBe(0)
    key(theTestId('lines'), { ctrlKey: true })
    key(theTestId('lines'), { metaKey: true })
    expect(submits.value).toBe(2)
  })

  it('leaves a composition, a button, Shift-less Alt and a key already handled alone', async () => {
    const { submits } = mountActionDialog()
    await flushPromises()
    key(theTestId('line'), { isComposing: true })
    key(theTestId('line'), { keyCode: 229 })
    key(theTestId('line'), { altKey: true })
    key(theTestId('own-button'))
    const handled = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true })
    handled.preventDefault()
    theTestId('line').dispatchEvent(handled)
    expect(submits.value).toBe(0)
  })

  it.each([{ busy: true }, { disabled: true }, { blockedReason: 'Waits for the service.' }])(
    'does nothing while the submit is in flight, or the action is disabled or must wait (%o)',
    async (props) => {
      const { submits } = mountActionDialog(props)
      await flushPromises()
      key(theTestId('line'))
      expect(submits.value).toBe(0)
    },
  )
})

describe('Esc in a form dialog', () => {
  // Element Plus closes its dialog on Esc (its escape listener, which its transitions run in
  // Chromium; the lists journey presses it): the dialog lets it, but not while in flight.
  it.each([
    [false, true],
    [true, false],
  ])('while busy is %s, Esc closes it: %s', async (busy, closes) => {
    mountActionDialog({ busy })
    await flushPromises()
    const dialog = findDialog()
    expect(dialog.props('closeOnPressEscape')).toBe(closes)
    // The corner's close button goes with it: Cancel is disabled while in flight too.
    expect(dialog.props('showClose')).toBe(closes)
  })
})

describe('a schema form in a dialog', () => {
  it('submits once on Enter (the form, not the dialog as well), and not while saving', async () => {
    const saving = ref(false)
    const form = { alert: ref<string | null>(null), saving }
    const dialogSubmits = ref(0)
    const formSubmits = ref(0)
    mountHost(() =>
      h(
        ActionDialog,
        {
          title: 'Sign in',
          submitLabel: 'Sign in',
          modelValue: true,
          onSubmit: () => dialogSubmits.value++,
        },
        () =>
          h(SchemaFormShell, { form, onSubmit: () => formSubmits.value++ }, () =>
            h('input', { 'data-testid': 'password' }),
          ),
      ),
    )
    await flushPromises()
    key(theTestId('password'))
    expect([formSubmits.value, dialogSubmits.value]).toEqual([1, 0])
    saving.value = true
    await flushPromises()
    key(theTestId('password'))
    expect([formSubmits.value, dialogSubmits.value]).toEqual([1, 0])
  })

  it('saves a create dialog of the registry on Enter in its field', async () => {
    fake.handle('api.call', () => ({
      data: { data: { id: 't-1' } },
      fetchedAt: '',
      fromCache: false,
    }))
    const wrapper = mountFormDialog(OperationFormDialog, 'targets', {
      title: 'New target',
      op: 'targets.create',
    })
    await flushPromises()
    for (const [name, value] of [
      ['name', 'Gateway'],
      ['address', '192.0.2.1'],
    ]) {
      const input = document.querySelector<HTMLInputElement>(`[data-field="${name}"] input`)!
      input.value = value
      input.dispatchEvent(new Event('input'))
    }
    await flushPromises()
    key(document.querySelector('[data-field="address"] input')!)
    await formSettled()
    expect(apiCalls(fake).filter((c) => c.op === 'targets.create')).toHaveLength(1)
    expect(wrapper.emitted('saved')).toHaveLength(1)
  })
})
