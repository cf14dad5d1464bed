import {
  DUE_WITHIN_KEY,
  FIRST_SEEN_AFTER_KEY,
  FIRST_SEEN_BEFORE_KEY,
  OVERDUE_KEY,
} from '@/resources/findingFilterKeys'
import { defineResource } from '../types'

const inactive = (a: { state?: unknown }) => a.state !== 'active'

/** Vulnerabilities and exceptions. */
export const findingsResources = [
  defineResource({
    key: 'vulnerabilities',
    group: 'vulnerabilities',
    noun: 'vulnerability',
    plural: 'vulnerabilities',
    titleField: 'title',
    ops: { list: 'vulnerabilities.list', show: 'vulnerabilities.details' },
    // Every column but the title has the width its values need (an IPv4 address, a CVE tag, a
    // date over two lines), so the title takes what is left: at 1440 px about 230 px, one or two
    // lines for every title of the demo, not four.
    columns: [
      { key: 'title', sortable: true },
      { key: 'severity', kind: 'severity', sortable: true, width: 100 },
      { key: 'cvss_score', label: 'CVSS', kind: 'number', sortable: true, width: 80 },
      { key: 'host_ip', label: 'Host', link: 'hosts', linkId: 'host_id', width: 128 },
      { key: 'cve_ids', label: 'CVE', kind: 'tags', width: 148 },
      { key: 'pci_compliant', label: 'PCI', kind: 'boolean', width: 64 },
      { key: 'last_seen_at', label: 'Last seen', kind: 'datetime', sortable: true, width: 124 },
    ],
    filters: [
      'severity',
      'cvss_score_min',
      'cvss_score_max',
      'pci_compliant',
      'cve_id',
      'scan_id',
      'host_id',
    ],
    // The questions about a vulnerability and their answers are on its page's Ask tab
    // (views/vulnerabilities), with the prompt.
    related: [{ label: 'Exceptions', resource: 'exceptions', filter: 'vulnerability_id' }],
    defaultSort: '-cvss_score',
    // Every finding of the filter (up to 5,000), written as CSV by main.
    exportCsv: 'vulnerabilities.list',
    permission: 'vulnerabilities',
    // Its page adds what the service wrote about it, Create exception… and the Ask tab.
    // Its list adds row choice and the bulk decisions (Accept risk, False positive).
    custom: {
      list: () => import('@/views/vulnerabilities/VulnerabilitiesView.vue'),
      detail: () => import('@/views/vulnerabilities/VulnerabilityDetailView.vue'),
      // Its due filters and first-seen bounds (composables/dueDates.ts, firstSeenFilter.ts).
      listReadFromAddress: {
        unless: [OVERDUE_KEY, DUE_WITHIN_KEY, FIRST_SEEN_AFTER_KEY, FIRST_SEEN_BEFORE_KEY],
      },
    },
  }),
  defineResource({
    key: 'exceptions',
    group: 'exceptions',
    noun: 'exception',
    plural: 'exceptions',
    titleField: 'vulnerability_title',
    ops: {
      list: 'exceptions.list',
      show: 'exceptions.show',
      create: 'exceptions.create',
      update: 'exceptions.update',
      delete: 'exceptions.delete',
      bulkDelete: 'exceptions.bulk_delete',
    },
    columns: [
      {
        key: 'vulnerability_title',
        label: 'Vulnerability',
        link: 'vulnerabilities',
        linkId: 'vulnerability_id',
      },
      { key: 'severity', kind: 'severity', width: 110 },
      { key: 'host_ip', label: 'Host', link: 'hosts', linkId: 'host_id' },
      { key: 'kind', kind: 'status' },
      { key: 'state', kind: 'status', sortable: true },
      { key: 'expires_at', label: 'Expires', kind: 'datetime', sortable: true },
    ],
    filters: ['state', 'kind', 'vulnerability_id', 'host_id'],
    rowActions: [
      { op: 'exceptions.activate', label: 'Activate', when: inactive },
      { op: 'exceptions.reset', label: 'Reset', confirm: 'danger' },
    ],
    panels: [{ label: 'Vulnerability and host', op: 'exceptions.details' }],
    alsoChanges: ['vulnerabilities'],
    // The expiry is picked as a day after today; from a vulnerability, that vulnerability is fixed.
    form: () => import('@/views/exceptions/ExceptionFormDialog.vue'),
    defaultSort: 'expires_at',
    // Its page adds the statistics chart above the table.
    custom: { list: () => import('@/views/exceptions/ExceptionsView.vue') },
  }),
]
