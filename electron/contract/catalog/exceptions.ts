import { defineGroup } from './types'

/** exceptions: operations are being added (catalog work in progress). */
export const exceptionsOperations = defineGroup([])
