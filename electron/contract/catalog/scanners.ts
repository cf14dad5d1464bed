import { defineGroup } from './types'

/** scanners: operations are being added (catalog work in progress). */
export const scannersOperations = defineGroup([])
