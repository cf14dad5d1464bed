import { defineGroup } from './types'

/** port_lists: operations are being added (catalog work in progress). */
export const portListsOperations = defineGroup([])
