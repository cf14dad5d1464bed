import { defineGroup } from './types'

/** users: operations are being added (catalog work in progress). */
export const usersOperations = defineGroup([])
