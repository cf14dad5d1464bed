import { defineGroup } from './types'

/** advanced_reports: operations are being added (catalog work in progress). */
export const advancedReportsOperations = defineGroup([])
