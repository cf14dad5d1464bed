import { defineGroup } from './types'

/** schedules: operations are being added (catalog work in progress). */
export const schedulesOperations = defineGroup([])
