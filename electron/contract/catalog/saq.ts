import { defineGroup } from './types'

/** saq: operations are being added (catalog work in progress). */
export const saqOperations = defineGroup([])
