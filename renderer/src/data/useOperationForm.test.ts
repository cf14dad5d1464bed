import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { ref } from 'vue'
import { apiCalls, listAnswer, mountComposable, useTwoAccounts } from '@/test/composables'
import { invalid } from '@/test/fakeScandesk'
import { useOperation } from './useOperation'
import { useOperationForm } from './useOperationForm'

const fake = useTwoAccounts()

/** A form element with one input per field, as the form kit renders it. */
function formElement(fields: string[]): HTMLElement {
  const root = document.createElement('form')
  for (const name of fields) {
    const holder = document.createElement('div')
    holder.dataset.field = name
    holder.appendChild(document.createElement('input'))
    root.appendChild(holder)
  }
  document.body.appendChild(root)
  return root
}

const creates = () => apiCalls(fake).filter((c) => c.op === 'targets.create')

describe('a form bound to a write operation', () => {
  it('checks the values with the catalog’s schema before sending anything', async () => {
    const root = ref<HTMLElement | null>(formElement(['name', 'address']))
    const { result: form } = mountComposable(() => useOperationForm('targets.create', { root }))
    expect(form.errors.value).toEqual({})
    form.setValue('name', '   ')
    form.setValue('address', '10.0.0.1')
    expect(await form.submit()).toBeNull()
    await flushPromises()
    expect(creates()).toHaveLength(0)
    expect(form.errors.value.name).toBe('Name is required')
    expect(document.activeElement).toBe(root.value!.querySelector('[data-field="name"] input'))
  })

  it('puts the service’s field errors under their fields and the rest in the alert', async () => {
    fake.handle('api.call', () =>
      invalid(
        { address: ['is outside the licensed ranges'], owner: ['must be set'] },
        'The target could not be saved.',
      ),
    )
    const root = ref<HTMLElement | null>(formElement(['name', 'address']))
    const { result: form } = mountComposable(() => useOperationForm('targets.create', { root }))
    form.setValue('name', 'Gateway')
    form.setValue('address', '10.0.0.1')
    expect(await form.submit()).toBeNull()
    await flushPromises()
    expect(creates()[0].input).toEqual({ body: { name: 'Gateway', address: '10.0.0.1' } })
    expect(form.errors.value.address).toBe('Address is outside the licensed ranges')
    expect(form.alert.value).toBe('The target could not be saved. Owner must be set')
    expect(document.activeElement).toBe(root.value!.querySelector('[data-field="address"] input'))
  })

  it('refreshes the lists the write changed, for that account only', async () => {
    fake.handle('api.call', (p: { op: string }) =>
      p.op === 'targets.create'
        ? {
            data: { data: { id: 'tgt-9', type: 'target', attributes: {} } },
            fetchedAt: '',
            fromCache: false,
          }
        : listAnswer('A', 1),
    )
    mountComposable(() => useOperation('targets.list', {}))
    mountComposable(() => useOperation('scanners.list', {}))
    await flushPromises()
    const { result: form } = mountComposable(() => useOperationForm('targets.create'))
    form.setValue('name', 'Gateway')
    form.setValue('address', '10.0.0.1')
    expect(await form.submit()).toMatchObject({ data: { id: 'tgt-9' } })
    await flushPromises()
    const lists = (op: string) => apiCalls(fake).filter((c) => c.op === op)
    expect(lists('targets.list')).toHaveLength(2)
    expect(lists('scanners.list')).toHaveLength(1)
  })

  it('refreshes nothing after a calculation the service answers by POST', async () => {
    fake.handle('api.call', (p: { op: string }) =>
      p.op === 'targets.calculate_hosts'
        ? {
            data: { data: { address: '10.0.0.0/24', hosts_count: 256 } },
            fetchedAt: '',
            fromCache: false,
          }
        : listAnswer('A', 1),
    )
    mountComposable(() => useOperation('targets.list', {}))
    await flushPromises()
    const { result: form } = mountComposable(() => useOperationForm('targets.calculate_hosts'))
    form.setValue('address', '10.0.0.0/24')
    expect(await form.submit()).not.toBeNull()
    await flushPromises()
    expect(apiCalls(fake).filter((c) => c.op === 'targets.list')).toHaveLength(1)
  })

  it('sends the path of the edited resource and only the fields it accepts', async () => {
    fake.handle('api.call', () => ({
      data: { data: { id: 'tgt-1' } },
      fetchedAt: '',
      fromCache: false,
    }))
    const { result: form } = mountComposable(() =>
      useOperationForm('targets.update', {
        path: () => ({ id: 'tgt-1' }),
        initial: () => ({ name: 'Old', description: 'Kept' }),
      }),
    )
    form.setValue('name', 'New')
    form.setValue('description', '')
    await form.submit()
    expect(apiCalls(fake)[0]).toMatchObject({
      op: 'targets.update',
      input: { path: { id: 'tgt-1' }, body: { name: 'New', description: '' } },
    })
  })

  it('runs the checks no schema covers, names fields by their labels, and sends nothing', async () => {
    const root = ref<HTMLElement | null>(formElement(['current_password', 'password', 'confirm']))
    const { result: form } = mountComposable(() =>
      useOperationForm('user.change_password', {
        root,
        labels: { current_password: 'Current password', confirm: 'Confirmation' },
        check: (v): Record<string, string> =>
          v.confirm === v.password ? {} : { confirm: 'does not match the new password' },
      }),
    )
    form.setValue('current_password', 'old-secret')
    form.setValue('password', 'new-secret-123')
    form.setValue('confirm', 'new-secret-124')
    expect(await form.submit()).toBeNull()
    await flushPromises()
    expect(form.errors.value.confirm).toBe('Confirmation does not match the new password')
    expect(apiCalls(fake)).toHaveLength(0)
    expect(document.activeElement).toBe(root.value!.querySelector('[data-field="confirm"] input'))
  })
})
