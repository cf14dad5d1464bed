import { describe, expect, it } from 'vitest'
import { useFakeApp } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { mountUserSection } from '@/test/userSection'
import OrganizationSection from './OrganizationSection.vue'
import ProductsSection from './ProductsSection.vue'
import {
  byTestId,
  callsOf,
  click,
  serveUserApi,
  settle,
  userResource,
  type ApiPayload,
} from './userTestKit'

const fake = useFakeApp()

const organization = {
  data: {
    id: 'org-001',
    type: 'organization',
    attributes: { name: 'Acme Payments', country: 'US', time_zone: 'UTC', users_count: 7 },
  },
}
const members = {
  data: [
    userResource({ email: 'ada@example.com' }, 'usr-001'),
    userResource({ email: 'bob@example.com', first_name: 'Bob', last_name: '' }, 'usr-002'),
  ],
  meta: { pagination: { total_count: 2 } },
}
const admin = () => ({
  data: { role: 'administrator', permissions: ['organization.write', 'users.read'] },
})

describe('the organization section', () => {
  it('shows the organization and its members, and lets an administrator edit it', async () => {
    serveUserApi(fake, {
      'user.permissions': admin,
      'user.organization': () => organization,
      'user.organization_members': () => members,
    })
    await mountUserSection(OrganizationSection)
    const section = byTestId('user-organization')[0]
    expect(section.textContent).toContain('Acme Payments')
    expect(byTestId('user-organization-members')[0].textContent).toContain('bob@example.com')
    const edit = byTestId('user-organization-edit')[0] as HTMLButtonElement
    expect(edit.disabled).toBe(false)
    await click('user-organization-edit')
    await settle()
    expect(document.querySelector('[data-testid="operation-form"]')).not.toBeNull()
  })

  it('disables editing with the reason for a user who may not change the organization', async () => {
    serveUserApi(fake, {
      'user.organization': () => organization,
      'user.organization_members': () => members,
    })
    await mountUserSection(OrganizationSection)
    const edit = byTestId('user-organization-edit')[0] as HTMLButtonElement
    expect(edit.disabled).toBe(true)
    expect(callsOf(fake, 'user.update_organization')).toHaveLength(0)
  })
})

describe('the products and plans section', () => {
  const products = {
    data: [
      {
        id: 'prd-001',
        type: 'product',
        attributes: { name: 'PCI scan', product_code: 'pci_scan', subscribed: true },
      },
      {
        id: 'prd-002',
        type: 'product',
        attributes: { name: 'External scan', product_code: 'external_scan', subscribed: true },
      },
      {
        id: 'prd-003',
        type: 'product',
        attributes: { name: 'Internal scan', product_code: 'internal_scan', subscribed: false },
      },
    ],
  }
  const history = {
    data: [
      {
        id: 'sub-001',
        type: 'subscription',
        attributes: { status: 'active', product_code: 'pci_scan', plan_name: 'PCI Professional' },
      },
    ],
  }

  it('says the service does not provide active plans when it marks them not implemented', async () => {
    serveUserApi(fake, {
      'user.show': () => ({ data: userResource({ current_product: 'pci_scan' }) }),
      'user.products': () => products,
      'user.active_plans': () => ({ data: [], meta: { not_implemented: true } }),
      'user.subscriptions_history': () => history,
    })
    await mountUserSection(ProductsSection)
    expect(byTestId('user-active-plans-not-implemented')).toHaveLength(1)
    expect(byTestId('user-subscriptions-history')[0].textContent).toContain('PCI Professional')
    // The current product is marked; the product not subscribed to cannot be chosen.
    const table = byTestId('user-products-table')[0]
    expect(byTestId('user-products-current')).toHaveLength(1)
    const buttons = [
      ...table.querySelectorAll<HTMLButtonElement>('[data-testid="user-products-work-in"]'),
    ]
    expect(buttons.map((b) => b.disabled)).toEqual([false, true])
  })

  it('lists active plans when the service has them', async () => {
    serveUserApi(fake, {
      'user.products': () => products,
      'user.active_plans': () => ({
        data: [{ id: 'pln-1', attributes: { name: 'PCI Basic', product_code: 'pci_scan' } }],
      }),
      'user.subscriptions_history': () => ({ data: [] }),
    })
    await mountUserSection(ProductsSection)
    expect(byTestId('user-active-plans-not-implemented')).toHaveLength(0)
    expect(byTestId('user-active-plans')[0].textContent).toContain('PCI Basic (pci_scan)')
  })

  it('switches the product the user works in and shows the service’s refusal plainly', async () => {
    let refuse = true
    serveUserApi(fake, {
      'user.show': () => ({ data: userResource({ current_product: 'pci_scan' }) }),
      'user.products': () => products,
      'user.active_plans': () => ({ data: [], meta: { not_implemented: true } }),
      'user.subscriptions_history': () => history,
      'user.change_product': (p: ApiPayload) => {
        if (refuse) {
          refuse = false
          return new Fail({ code: 'FORBIDDEN', status: 403, message: 'You may not do that.' })
        }
        return { data: userResource({ current_product: String(p.input.body?.product_code) }) }
      },
    })
    await mountUserSection(ProductsSection)
    await click('user-products-work-in')
    await settle()
    expect(byTestId('user-products-error')[0].textContent).toContain('You may not do that.')
    await click('user-products-work-in')
    await settle()
    expect(callsOf(fake, 'user.change_product').map((c) => c.input.body)).toEqual([
      { product_code: 'external_scan' },
      { product_code: 'external_scan' },
    ])
    expect(byTestId('user-products-error')).toHaveLength(0)
    const current = byTestId('user-products-current')[0].closest('tr')
    expect(current?.textContent).toContain('external_scan')
  })
})
