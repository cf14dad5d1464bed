import { defineGroup } from './types'

/** hosts: operations are being added (catalog work in progress). */
export const hostsOperations = defineGroup([])
