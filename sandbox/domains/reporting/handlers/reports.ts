import type { Handlers } from '../../../types'
import { listAnswer, ownedRows } from '../util'
import { fileHandlers } from './file-ops'

/** Handlers of the reports group (show, delete and bulk delete are the engine's generic kinds). */
export const reportHandlers: Handlers = {
  'reports.list': (req, ctx) => {
    const q = req.query
    const rows = ownedRows(ctx, req, 'reports').filter(
      (r) =>
        (!q.scan_id || r.attributes.scan_id === q.scan_id) &&
        (!q.status || r.attributes.status === q.status) &&
        (!q.report_type || r.attributes.report_type === q.report_type),
    )
    return listAnswer(req, rows, { defaultSort: '-created_at', searchFields: ['name'] })
  },
  ...fileHandlers('reports', 'reports'),
}
