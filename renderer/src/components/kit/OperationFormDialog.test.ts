import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { apiCalls, mountFormDialog, useTwoAccounts } from '@/test/composables'
import { byTestId, click, formSettled, submitWith, theTestId } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'
import OperationFormDialog from './OperationFormDialog.vue'

const fake = useTwoAccounts()

const creates = () => apiCalls(fake).filter((c) => c.op === 'targets.create')
const field = (name: string) =>
  document.querySelector<HTMLInputElement>(`[data-field="${name}"] input`)!

async function fill(name: string, value: string): Promise<void> {
  const input = field(name)
  input.value = value
  input.dispatchEvent(new Event('input'))
  await flushPromises()
}

async function openCreateTarget() {
  const wrapper = mountFormDialog(OperationFormDialog, 'targets', {
    title: 'New target',
    op: 'targets.create',
  })
  await flushPromises()
  await fill('name', 'Gateway')
  await fill('address', '192.0.2.1')
  return wrapper
}

describe('a form dialog whose write fails for want of the service', () => {
  it.each(['OFFLINE', 'TIMEOUT'] as const)(
    'keeps what was typed after %s and sends the same request again on Retry',
    async (code) => {
      let fail = true
      fake.handle('api.call', () =>
        fail
          ? new Fail({ code, message: 'The service cannot be reached.' })
          : { data: { data: { id: 't-1' } }, fetchedAt: '', fromCache: false },
      )
      const wrapper = await openCreateTarget()
      await submitWith('operation-form-submit')
      expect(theTestId('form-error').textContent).toContain('The service cannot be reached.')
      expect(field('name').value).toBe('Gateway')
      expect(field('address').value).toBe('192.0.2.1')
      fail = false
      await click('form-error-retry')
      await formSettled()
      expect(creates()).toHaveLength(2)
      expect(creates()[1].input).toEqual(creates()[0].input)
      expect(wrapper.emitted('update:modelValue')).toEqual([[false]])
      expect(wrapper.emitted('saved')).toHaveLength(1)
    },
  )

  it('offers no Retry when the service refused the values', async () => {
    fake.handle('api.call', () => new Fail({ code: 'CONFLICT', message: 'Already there.' }))
    await openCreateTarget()
    await submitWith('operation-form-submit')
    expect(theTestId('form-error').textContent).toContain('Already there.')
    expect(document.querySelector('[data-testid="form-error-retry"]')).toBeNull()
  })
})

describe('a form dialog whose write was queued', () => {
  it('closes as accepted, with the queued answer', async () => {
    fake.handle('api.call', () => ({
      data: null,
      fetchedAt: '',
      fromCache: false,
      queued: { id: 'item-0001' },
    }))
    const wrapper = await openCreateTarget()
    await submitWith('operation-form-submit')
    expect(wrapper.emitted('saved')).toEqual([[{ queued: { id: 'item-0001' } }]])
    expect(document.body.textContent).toContain(
      'Queued — it will be sent when the service is back (see Outbox).',
    )
  })
})

describe('a form dialog while the service is out of reach', () => {
  it('disables its action with the reason, keeps what was typed, and sends once it is back', async () => {
    fake.handle('api.call', () => ({
      data: { data: { id: 't-1' } },
      fetchedAt: '',
      fromCache: false,
    }))
    const wrapper = await openCreateTarget()
    fake.emit('connectivity.mode', { workOffline: true, network: true })
    await flushPromises()
    const save = theTestId<HTMLButtonElement>('operation-form-submit')
    expect(save.disabled).toBe(true)
    expect(theTestId('action-blocked').textContent?.trim()).toBe(
      'This needs the service, and “Work offline” is on (top bar).',
    )
    // Enter in a field submits the form: refused before anything is sent
    field('name').form?.requestSubmit()
    await formSettled()
    expect(creates()).toHaveLength(0)
    expect(field('name').value).toBe('Gateway')

    fake.emit('connectivity.mode', { workOffline: false, network: true })
    await flushPromises()
    expect(byTestId('action-blocked')).toHaveLength(0)
    await submitWith('operation-form-submit')
    expect(creates()).toHaveLength(1)
    expect(wrapper.emitted('saved')).toHaveLength(1)
  })
})
