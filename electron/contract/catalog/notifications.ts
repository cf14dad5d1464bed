import { defineGroup } from './types'

/** notifications: operations are being added (catalog work in progress). */
export const notificationsOperations = defineGroup([])
