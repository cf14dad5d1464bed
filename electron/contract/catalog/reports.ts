import { defineGroup } from './types'

/** reports: operations are being added (catalog work in progress). */
export const reportsOperations = defineGroup([])
