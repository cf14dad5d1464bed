import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { ref } from 'vue'
import { resourceByKey, type ResourceDef } from '@/resources'
import { errorOfField, submitWith, theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import ExceptionFormDialog from './ExceptionFormDialog.vue'
import { dayOf, endOfDay } from './expiry'

const fake = useFakeApp()
const exceptions = resourceByKey('exceptions') as ResourceDef
const answer = (data: unknown) => ({ data, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })
type Call = { op: string; input: { path?: Record<string, string>; body?: Record<string, unknown> } }

function serve() {
  const sent: Call[] = []
  fake.handle('api.call', (p: Call) => {
    if (p.op === 'exceptions.update') {
      sent.push(p)
      return answer({ data: { id: 'exc-1', type: 'exception', attributes: {} } })
    }
    return answer({ data: [], meta: {} })
  })
  return sent
}

async function mountEdit(initial: Record<string, unknown>) {
  const open = ref(true)
  mountWithApp(ExceptionFormDialog, {
    props: {
      modelValue: open.value,
      'onUpdate:modelValue': (v: boolean) => (open.value = v),
      op: 'exceptions.update',
      title: 'Edit exception',
      resource: exceptions,
      path: { id: 'exc-1' },
      initial,
    },
  })
  await flushPromises()
}

const setReason = (text: string) => {
  const el = document.querySelector<HTMLTextAreaElement>('[data-field="reason"] textarea')!
  el.value = text
  el.dispatchEvent(new Event('input'))
}

describe('editing an exception', () => {
  it('starts from its kind, reason and expiry day, and sends the changed reason', async () => {
    const sent = serve()
    const expires = endOfDay(dayOf(new Date(Date.now() + 40 * 86_400_000).toISOString()))
    await mountEdit({ kind: 'false_positive', reason: 'Old reason', expires_at: expires })
    expect(theTestId<HTMLInputElement>('exception-expiry').value).toBe(dayOf(expires))
    expect(document.querySelector('[data-testid="exception-subject"]')).toBeNull()
    setReason('Backport confirmed by the vendor')
    await submitWith('operation-form-submit')
    expect(sent).toHaveLength(1)
    expect(sent[0].input).toEqual({
      path: { id: 'exc-1' },
      body: {
        kind: 'false_positive',
        reason: 'Backport confirmed by the vendor',
        expires_at: expires,
      },
    })
  })

  it('does not ask about an expiry left as it was; a new one must be after today', async () => {
    const sent = serve()
    const past = new Date(Date.now() - 3 * 86_400_000).toISOString()
    await mountEdit({ kind: 'accepted_risk', reason: 'Old', expires_at: past })
    const expiry = theTestId<HTMLInputElement>('exception-expiry')
    expiry.value = dayOf(new Date().toISOString())
    expiry.dispatchEvent(new Event('input'))
    await submitWith('operation-form-submit')
    expect(await errorOfField('expires_at')).toBe('Pick a day after today.')
    expect(sent).toHaveLength(0)

    expiry.value = dayOf(past)
    expiry.dispatchEvent(new Event('input'))
    await submitWith('operation-form-submit')
    expect(sent).toHaveLength(1) // the service decides about the old date
  })
})
