import type { SandboxDomain } from '../../types'
import { billingHandlers } from './billing'
import { organizationsHandlers } from './organizations'
import { seedCommerce } from './seed'
import { FEATURES, PLANS, PRODUCTS, SUBSCRIPTIONS } from './store'
import { subscriptionHandlers } from './subscriptions'
import { usersHandlers } from './users'

/**
 * The commerce domain: products, features, plans and subscriptions (its own collections), and
 * the administration of users and organizations (rows of the identity domain's collections).
 */
export const commerceDomain: SandboxDomain = {
  name: 'commerce',
  collections: {
    [PRODUCTS]: { type: 'product', prefix: 'prd', searchFields: ['code', 'name', 'description'] },
    [FEATURES]: { type: 'feature', prefix: 'fea', searchFields: ['code', 'name', 'description'] },
    [PLANS]: { type: 'plan', prefix: 'pln', searchFields: ['name', 'code', 'description'] },
    [SUBSCRIPTIONS]: {
      type: 'subscription',
      prefix: 'sub',
      orgScoped: true,
      searchFields: ['plan_name', 'product_name'],
    },
  },
  seed: seedCommerce,
  handlers: {
    ...usersHandlers,
    ...organizationsHandlers,
    ...subscriptionHandlers,
    ...billingHandlers,
  },
}
