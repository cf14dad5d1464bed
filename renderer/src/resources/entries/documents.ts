import { defineResource } from '../types'

/** Reports and advanced reports (their views add generation, exports and downloads). */
export const documentResources = [
  defineResource({
    key: 'reports',
    group: 'reports',
    noun: 'report',
    plural: 'reports',
    titleField: 'name',
    ops: {
      list: 'reports.list',
      show: 'reports.show',
      delete: 'reports.delete',
      bulkDelete: 'reports.bulk_delete',
    },
    columns: [
      { key: 'name', sortable: true },
      { key: 'report_type', label: 'Type', kind: 'status', width: 110 },
      { key: 'status', kind: 'status', sortable: true, width: 120 },
      { key: 'created_at', label: 'Created', kind: 'datetime', sortable: true, width: 180 },
    ],
    filters: ['status', 'report_type', 'scan_id'],
    testId: 'reports-table',
    // Its page adds generation, each row's export job and the details drawer (DocumentsTable).
    custom: { list: () => import('@/views/reports/ReportsView.vue') },
  }),
  defineResource({
    key: 'advanced_reports',
    group: 'advanced_reports',
    noun: 'advanced report',
    plural: 'advanced reports',
    titleField: 'name',
    ops: {
      list: 'advanced_reports.list',
      show: 'advanced_reports.show',
      create: 'advanced_reports.create',
      update: 'advanced_reports.update',
      delete: 'advanced_reports.delete',
      bulkDelete: 'advanced_reports.bulk_delete',
    },
    columns: [
      { key: 'name', sortable: true },
      { key: 'report_type', label: 'Type', kind: 'status' },
      { key: 'status', kind: 'status', sortable: true, width: 120 },
      { key: 'created_at', label: 'Created', kind: 'datetime', sortable: true, width: 180 },
    ],
    filters: ['status', 'report_type'],
    testId: 'advanced-reports-table',
    // Its page adds that, with the form of filters (AdvancedReportForm) to create and edit.
    custom: { list: () => import('@/views/advanced-reports/AdvancedReportsView.vue') },
  }),
]
