import type { DocumentKind } from '@contract/files'

/** Attributes both reports and advanced reports have (the wire names of catalog/reports.ts). */
export interface DocumentAttributes {
  name: string
  report_type: string
  status: string
  description?: string | null
  scan_id?: string | null
  findings_count?: number | null
  files?: Partial<
    Record<
      'pdf' | 'csv',
      {
        status: string
        size?: number
        sha256?: string
        requested_at?: string | null
        generated_at?: string | null
      }
    >
  >
  created_at?: string
  updated_at?: string
}

/** What differs between the reports and the advanced reports screens. */
export interface DocumentScreen {
  kind: DocumentKind
  /** The catalog group, prefix of every operation id. */
  group: 'reports' | 'advanced_reports'
  /** "report" / "advanced report", for messages. */
  noun: string
  /** data-testid of each row's document actions (with the row's id as data-report-id). */
  rowTestId: string
  /** The page has its own New button (its form leads to the generic one): the table shows none. */
  ownCreate?: boolean
}
