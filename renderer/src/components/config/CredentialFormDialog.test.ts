import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { apiCalls, mountFormDialog, useTwoAccounts } from '@/test/composables'
import { byTestId, errorOfField, formSettled, submitWith } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'
import CredentialFormDialog from './CredentialFormDialog.vue'

type Call = { op: string; input?: { path?: Record<string, string>; body?: unknown } }
const answer = (data: unknown) => ({ data: { data }, fetchedAt: '', fromCache: false })

const fake = useTwoAccounts(() => {
  fake.handle('api.call', (p: Call) => {
    if (p.op === 'credentials.create' || p.op === 'credentials.update')
      return answer({ id: 'crd-1', type: 'credential', attributes: { has_secret: true } })
    if (p.op === 'user.permissions') return answer({ role: 'analyst', permissions: [] })
    return new Fail({ code: 'INTERNAL', message: `unexpected ${p.op}` })
  })
})

const sent = (op: string) => apiCalls(fake).filter((c) => c.op === op) as Call[]
const control = (field: string) =>
  document.querySelector<HTMLInputElement | HTMLTextAreaElement>(
    `[data-field="${field}"] input, [data-field="${field}"] textarea`,
  )
const shownFields = () =>
  [...document.querySelectorAll<HTMLElement>('[data-field]')].map((e) => e.dataset.field)

async function setField(field: string, value: string): Promise<void> {
  const el = control(field)!
  el.value = value
  el.dispatchEvent(new Event('input'))
  await flushPromises()
}

function mountForm(props: {
  op: 'credentials.create' | 'credentials.update'
  path?: Record<string, string>
  initial?: Record<string, unknown>
}) {
  return mountFormDialog(CredentialFormDialog, 'credentials', { title: 'T', ...props })
}

const STORED = { name: 'Linux fleet', kind: 'ssh_password', username: 'scanner' }

describe('the credential form', () => {
  it('edits without prefilling a secret or sending an empty one', async () => {
    // Even when handed one, the form never shows a secret.
    mountForm({
      op: 'credentials.update',
      path: { id: 'crd-1' },
      initial: { ...STORED, password: 'should-never-show' },
    })
    await flushPromises()
    expect(shownFields()).toEqual(['name', 'description', 'kind', 'username', 'password'])
    expect(control('password')!.value).toBe('')
    expect(control('password')!.type).toBe('password')
    expect(byTestId('secret-hint').map((h) => h.textContent?.trim())).toEqual([
      'Leave empty to keep the stored password. It is never shown.',
    ])
    await setField('name', 'Linux fleet (prod)')
    await submitWith('operation-form-submit')
    const [update] = sent('credentials.update')
    expect(update.input).toEqual({
      path: { id: 'crd-1' },
      body: { ...STORED, name: 'Linux fleet (prod)' },
    })
    for (const secret of ['password', 'private_key', 'passphrase', 'community'])
      expect(update.input?.body).not.toHaveProperty(secret)
  })

  it('sends a new secret only when one was typed', async () => {
    mountForm({ op: 'credentials.update', path: { id: 'crd-1' }, initial: STORED })
    await flushPromises()
    await setField('password', 'rotated-secret-2')
    await submitWith('operation-form-submit')
    expect(sent('credentials.update')[0].input?.body).toEqual({
      ...STORED,
      password: 'rotated-secret-2',
    })
  })

  it('requires the kind’s secret on create, and shows only that kind’s fields', async () => {
    mountForm({ op: 'credentials.create', initial: { kind: 'ssh_key' } })
    await flushPromises()
    expect(shownFields()).toEqual([
      'name',
      'description',
      'kind',
      'username',
      'private_key',
      'passphrase',
    ])
    expect(byTestId('secret-hint').map((h) => h.textContent?.trim())).toEqual([
      'Stored write-only: it is never shown again.',
      'Only if the key is encrypted.',
    ])
    await setField('name', 'Jump hosts')
    await setField('username', 'scan')
    await submitWith('operation-form-submit')
    expect(await errorOfField('private_key')).toBe(
      'Private key is required for an SSH key credential',
    )
    expect(sent('credentials.create')).toHaveLength(0)
    await setField('private_key', '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n')
    await submitWith('operation-form-submit')
    await formSettled()
    expect(sent('credentials.create')[0].input?.body).toEqual({
      name: 'Jump hosts',
      kind: 'ssh_key',
      username: 'scan',
      private_key: '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n',
    })
  })

  it('asks for the new kind’s secret when an edit changes the kind', async () => {
    mountForm({ op: 'credentials.update', path: { id: 'crd-1' }, initial: STORED })
    await flushPromises()
    document.querySelector<HTMLElement>('[data-field="kind"] .el-select__wrapper')!.click()
    await flushPromises()
    const option = [...document.querySelectorAll<HTMLElement>('.el-select-dropdown__item')].find(
      (o) => o.textContent?.trim() === 'snmp community',
    )!
    option.click()
    await flushPromises()
    expect(shownFields()).toEqual(['name', 'description', 'kind', 'community'])
    expect(byTestId('secret-hint').map((h) => h.textContent?.trim())).toEqual([
      'Another kind: type its community string (the stored secret is replaced).',
    ])
    await submitWith('operation-form-submit')
    expect(await errorOfField('community')).toBe(
      'Community is required for an SNMP community credential',
    )
    expect(sent('credentials.update')).toHaveLength(0)
  })
})
