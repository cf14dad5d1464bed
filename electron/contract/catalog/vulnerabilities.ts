import { defineGroup } from './types'

/** vulnerabilities: operations are being added (catalog work in progress). */
export const vulnerabilitiesOperations = defineGroup([])
