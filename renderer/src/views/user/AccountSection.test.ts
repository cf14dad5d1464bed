import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { useCurrentUserStore } from '@/stores/currentUser'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import { mountUserSection } from '@/test/userSection'
import DeleteAccountSection from './DeleteAccountSection.vue'
import TransferSection from './TransferSection.vue'
import UserAccountView from './UserAccountView.vue'
import {
  byTestId,
  callsOf,
  click,
  errorUnder,
  invalid,
  serveUserApi,
  settle,
  submitWith,
  typeInto,
  userResource,
  type OpHandler,
} from './userTestKit'

const fake = useFakeApp()

const deletable = { data: { deletable: true, reasons: [], warnings: ['you own 3 resources'] } }

async function mountDelete(handlers: Record<string, OpHandler> = {}) {
  serveUserApi(fake, { 'user.deletability': () => deletable, ...handlers })
  await mountUserSection(DeleteAccountSection)
}

const confirmButton = () => byTestId('user-delete-confirm')[0] as HTMLButtonElement

describe('deleting the own account', () => {
  it('offers deletion only when the service says it is possible', async () => {
    await mountDelete({
      'user.deletability': () => ({
        data: {
          deletable: false,
          reasons: ['an impersonating administrator cannot delete it'],
          warnings: [],
        },
      }),
    })
    expect(byTestId('user-delete-reasons')[0].textContent).toContain('impersonating')
    expect((byTestId('user-delete-open')[0] as HTMLButtonElement).disabled).toBe(true)
  })

  it('needs the e-mail address typed exactly before it sends anything', async () => {
    await mountDelete({ 'user.delete': () => ({ data: { id: 'usr-001', deleted: true } }) })
    expect(byTestId('user-delete-warnings')[0].textContent).toContain('you own 3 resources')
    await click('user-delete-open')
    await typeInto('user-delete-password', 'sandbox-password')
    await typeInto('user-delete-email', 'ada@example.co')
    expect(confirmButton().disabled).toBe(true)
    await submitWith('user-delete-confirm')
    expect(callsOf(fake, 'user.delete')).toHaveLength(0)

    await typeInto('user-delete-email', 'ADA@example.com ')
    expect(confirmButton().disabled).toBe(false)
    await submitWith('user-delete-confirm')
    expect(callsOf(fake, 'user.delete')[0].input.body).toEqual({ password: 'sandbox-password' })
    expect(useCurrentUserStore().deletedAtService).toBe(true)
  })

  it('shows a wrong password under its field and keeps the dialog', async () => {
    await mountDelete({ 'user.delete': () => invalid({ password: ['is incorrect'] }) })
    await click('user-delete-open')
    await typeInto('user-delete-email', 'ada@example.com')
    await typeInto('user-delete-password', 'nope')
    await submitWith('user-delete-confirm')
    expect(await errorUnder('user-delete-password')).toBe('Password is incorrect')
    expect(useCurrentUserStore().deletedAtService).toBe(false)
  })

  it('then says the account is gone at the service and offers to remove it from ScanDesk', async () => {
    serveUserApi(fake, {
      'user.deletability': () => deletable,
      'user.delete': () => ({ data: { id: 'usr-001', deleted: true } }),
    })
    fake.handle('accounts.remove', () => ({ removed: true }))
    fake.handle('accounts.list', () => ({ accounts: [], activeId: null }))
    mountWithApp(UserAccountView, { props: { tab: 'account' } })
    await flushPromises()
    await click('user-delete-open')
    await typeInto('user-delete-email', 'ada@example.com')
    await typeInto('user-delete-password', 'sandbox-password')
    await submitWith('user-delete-confirm')

    expect(byTestId('user-deleted-notice')[0].textContent).toContain(
      'Your account was deleted at the service',
    )
    expect(byTestId('user-tabs')).toHaveLength(0)
    // The deleted user is not asked anything again (no refresh of what the deletion changed).
    expect(callsOf(fake, 'user.deletability')).toHaveLength(1)
    await click('user-deleted-remove')
    expect(fake.calls.find((c) => c.channel === 'accounts.remove')?.payload).toEqual({
      accountId: 'acct-aaaa',
    })
  })
})

describe('transferring resources', () => {
  it('picks an active member of the organization and transfers to them', async () => {
    serveUserApi(fake, {
      'user.organization_members': () => ({
        data: [
          { id: 'usr-001', type: 'user', attributes: userResource().attributes },
          {
            id: 'usr-002',
            type: 'user',
            attributes: userResource({
              email: 'grace@example.com',
              first_name: 'Grace',
              last_name: 'Hopper',
            }).attributes,
          },
          {
            id: 'usr-003',
            type: 'user',
            attributes: userResource({ email: 'new@example.com', status: 'invited' }).attributes,
          },
        ],
      }),
      'user.transfer_resources': () => ({
        data: { to_user_id: 'usr-002', transferred: 4, by_collection: { targets: 3, scans: 1 } },
      }),
    })
    const wrapper = await mountUserSection(TransferSection)
    await click('user-transfer-open')
    expect(callsOf(fake, 'user.organization_members')).toHaveLength(1)
    const select = wrapper.findComponent({ name: 'ElSelect' })
    const options = select.findAllComponents({ name: 'ElOption' }).map((o) => o.props('label'))
    expect(options).toEqual(['Grace Hopper <grace@example.com>'])
    expect((byTestId('user-transfer-confirm')[0] as HTMLButtonElement).disabled).toBe(true)

    select.vm.$emit('update:modelValue', 'usr-002')
    await flushPromises()
    expect(byTestId('user-transfer-summary')[0].textContent).toContain('Grace Hopper')
    await submitWith('user-transfer-confirm')
    expect(callsOf(fake, 'user.transfer_resources')[0].input.body).toEqual({ user_id: 'usr-002' })
    expect(byTestId('user-transfer-result')[0].textContent).toContain('Transferred 4 items')
  })

  it('asks for the members only when the dialog opens, never users.list', async () => {
    serveUserApi(fake, {
      'user.permissions': () => ({ data: { role: 'manager', permissions: ['users.read'] } }),
      'user.organization_members': () => ({ data: [] }),
    })
    await mountUserSection(TransferSection)
    expect(callsOf(fake, 'user.organization_members')).toHaveLength(0)
    await click('user-transfer-open')
    expect(callsOf(fake, 'users.list')).toHaveLength(0)
    expect(callsOf(fake, 'user.organization_members')).toHaveLength(1)
  })

  it('shows a refused transfer in the dialog and keeps it open', async () => {
    serveUserApi(fake, {
      'user.organization_members': () => ({
        data: [
          {
            id: 'usr-002',
            type: 'user',
            attributes: userResource({ email: 'grace@example.com' }).attributes,
          },
        ],
      }),
      'user.transfer_resources': () =>
        invalid({ user_id: ['is not in your organization'] }, 'The transfer was refused.'),
    })
    const wrapper = await mountUserSection(TransferSection)
    await click('user-transfer-open')
    wrapper.findComponent({ name: 'ElSelect' }).vm.$emit('update:modelValue', 'usr-002')
    await flushPromises()
    await submitWith('user-transfer-confirm')
    await settle()
    const item = byTestId('user-transfer-user')[0].closest('.el-form-item')
    expect(item?.querySelector('.el-form-item__error')?.textContent?.trim()).toBe(
      'User is not in your organization',
    )
    expect(byTestId('user-transfer-result')).toHaveLength(0)
    expect(byTestId('user-transfer-dialog')[0].textContent).toContain('grace@example.com')
  })
})
