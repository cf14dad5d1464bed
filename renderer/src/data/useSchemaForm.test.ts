import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { mountComposable, useTwoAccounts } from '@/test/composables'
import { useSchemaForm } from './useSchemaForm'

useTwoAccounts()

// Two fields where one name begins with the other's, as the wizard's `start` and `start_at`.
const schema = z.strictObject({
  start: z.enum(['now', 'later']),
  start_at: z.string().min(1, 'Choose the first run.'),
})

function mountForm() {
  return mountComposable(() =>
    useSchemaForm({
      schema,
      initial: () => ({ start: 'now', start_at: '' }),
      send: async () => ({ ok: true as const, data: null }),
    }),
  ).result
}

describe('the schema form engine', () => {
  it('files an error under its own field when another field’s name is its prefix', async () => {
    const form = mountForm()
    // The user chose the other option first: vee-validate knows `start` from then on.
    form.setValue('start', 'later')
    expect(await form.validate()).toBe(false)
    expect(form.errors.value).toEqual({ start_at: 'Choose the first run.' })
  })

  it('shows a field’s error once it is left, and only that field’s', async () => {
    const form = mountForm()
    form.setValue('start', 'later')
    expect(await form.touch('start')).toBe(true)
    expect(form.errors.value).toEqual({})
    expect(await form.touch('start_at')).toBe(false)
    expect(form.errors.value).toEqual({ start_at: 'Choose the first run.' })
    form.setValue('start_at', '2030-03-25T09:00')
    expect(await form.touch('start_at')).toBe(true)
    expect(form.errors.value).toEqual({})
  })
})
