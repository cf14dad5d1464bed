import { defineGroup } from './types'

/** white_label: operations are being added (catalog work in progress). */
export const whiteLabelOperations = defineGroup([])
