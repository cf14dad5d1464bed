import { defineGroup } from './types'

/** auth: operations are being added (catalog work in progress). */
export const authOperations = defineGroup([])
