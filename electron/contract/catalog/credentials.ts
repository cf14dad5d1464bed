import { defineGroup } from './types'

/** credentials: operations are being added (catalog work in progress). */
export const credentialsOperations = defineGroup([])
