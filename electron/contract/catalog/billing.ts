import { defineGroup } from './types'

/** billing: operations are being added (catalog work in progress). */
export const billingOperations = defineGroup([])
