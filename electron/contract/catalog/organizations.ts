import { defineGroup } from './types'

/** organizations: operations are being added (catalog work in progress). */
export const organizationsOperations = defineGroup([])
