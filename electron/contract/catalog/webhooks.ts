import { defineGroup } from './types'

/** webhooks: operations are being added (catalog work in progress). */
export const webhooksOperations = defineGroup([])
