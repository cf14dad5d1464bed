import { defineGroup } from './types'

/** user: operations are being added (catalog work in progress). */
export const userOperations = defineGroup([])
