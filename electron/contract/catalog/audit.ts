import { defineGroup } from './types'

/** audit: operations are being added (catalog work in progress). */
export const auditOperations = defineGroup([])
