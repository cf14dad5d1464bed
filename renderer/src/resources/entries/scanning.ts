import { RUN_END_GROUPS } from '@/data/invalidation'
import { runFindingsUnknown, scanFindingsUnknown } from '@/utils/scanFindings'
import { scanIsLive } from '@/utils/scanStates'
import { defineResource } from '../types'

const ASSET_PANEL = () => import('@/components/assets/AssetContextPanel.vue')
const activeOnly = (a: { activated?: unknown }) => a.activated === false
const activated = (a: { activated?: unknown }) => a.activated === true

/** Targets, scans, schedules, hosts, scanners, port lists and credentials. */
export const scanningResources = [
  defineResource({
    key: 'targets',
    group: 'targets',
    noun: 'target',
    plural: 'targets',
    titleField: 'name',
    ops: {
      list: 'targets.list',
      show: 'targets.show',
      create: 'targets.create',
      update: 'targets.update',
      delete: 'targets.delete',
      bulkDelete: 'targets.bulk_delete',
    },
    columns: [
      { key: 'name', sortable: true },
      { key: 'address', sortable: true },
      { key: 'tags', kind: 'tags' },
      { key: 'hosts_count', label: 'Hosts', kind: 'number', sortable: true, width: 90 },
      { key: 'last_scanned_at', label: 'Last scanned', kind: 'datetime', sortable: true },
    ],
    filters: ['tag'],
    related: [
      { label: 'Scans', resource: 'scans', filter: 'target_id' },
      { label: 'Hosts', resource: 'hosts', filter: 'target_id' },
    ],
    // Its asset context, edited in place (issue 37 §2); open findings per severity over the runs
    // of the target's scans (issue 20).
    panels: [
      { label: 'Asset context', op: 'targets.show', component: ASSET_PANEL },
      {
        label: 'Trend',
        op: 'scans.history',
        component: () => import('@/views/targets/TargetTrend.vue'),
      },
    ],
    alsoChanges: ['scans'],
  }),
  defineResource({
    key: 'scans',
    group: 'scans',
    noun: 'scan',
    plural: 'scans',
    titleField: 'name',
    ops: {
      list: 'scans.list',
      show: 'scans.show',
      create: 'scans.create',
      update: 'scans.update',
      delete: 'scans.delete',
      bulkDelete: 'scans.bulk_delete',
    },
    columns: [
      { key: 'name', sortable: true },
      { key: 'status', kind: 'status', sortable: true, width: 110 },
      { key: 'progress', kind: 'progress', width: 130 },
      {
        key: 'severity_counts',
        label: 'Findings',
        kind: 'severity-counts',
        width: 190,
        notKnown: (a) => scanFindingsUnknown(a.status),
      },
      { key: 'started_at', label: 'Started', kind: 'datetime', sortable: true },
      { key: 'finished_at', label: 'Finished', kind: 'datetime', sortable: true },
    ],
    filters: ['status', 'target_id'],
    rowActions: [
      {
        op: 'scans.start',
        label: 'Start',
        confirm: 'costly',
        when: (a) => a.status !== 'running' && a.status !== 'queued',
      },
      {
        op: 'scans.stop',
        label: 'Stop',
        confirm: 'danger',
        when: (a) => a.status === 'running' || a.status === 'queued',
      },
    ],
    // A queued, running or stopping scan's status and progress stay current on every list of
    // scans; a run that ends refreshes what it changed.
    live: { when: scanIsLive, settles: RUN_END_GROUPS },
    // The guided wizard is the one New button; it offers the single form for those who know
    // every field.
    createLabel: 'New scan…',
    createVia: { op: 'scans.create_from_wizard', to: '/scans/new' },
    panels: [{ label: 'Statistics', op: 'scans.statistics' }],
    related: [
      { label: 'Hosts', resource: 'hosts', op: 'scans.hosts' },
      {
        label: 'Vulnerabilities',
        resource: 'vulnerabilities',
        op: 'scans.vulnerabilities',
        show: { op: 'scans.vulnerability_details', param: 'vulnerability_id' },
      },
      { label: 'History', resource: 'scan_history', op: 'scans.history' },
      {
        label: 'Reports',
        resource: 'reports',
        filter: 'scan_id',
        component: () => import('@/views/scans/ScanReportsTab.vue'),
      },
    ],
    fields: { scan_profile: { picker: 'scan_profiles' } },
    permission: 'scans',
    // Its page adds the live status card, Start and Stop, and the statistics chart.
    custom: { detail: () => import('@/views/scans/ScanDetailView.vue') },
  }),
  defineResource({
    key: 'scan_profiles',
    group: 'scans',
    noun: 'scan profile',
    plural: 'scan profiles',
    titleField: 'name',
    ops: { list: 'scans.scan_profiles' },
    columns: [
      { key: 'name' },
      { key: 'code' },
      { key: 'activated', kind: 'boolean' },
      { key: 'checks_count', label: 'Checks', kind: 'number' },
    ],
    defaultSort: 'name',
  }),
  defineResource({
    key: 'scan_history',
    group: 'scans',
    noun: 'run',
    plural: 'runs',
    titleField: 'started_at',
    nested: true,
    ops: { list: 'scans.history' },
    columns: [
      { key: 'started_at', label: 'Started', kind: 'datetime' },
      { key: 'finished_at', label: 'Finished', kind: 'datetime' },
      { key: 'status', kind: 'status' },
      { key: 'duration_seconds', label: 'Seconds', kind: 'number' },
      { key: 'hosts_count', label: 'Hosts', kind: 'number' },
      {
        key: 'severity_counts',
        label: 'Findings',
        kind: 'severity-counts',
        notKnown: (a) => runFindingsUnknown(a.status),
      },
    ],
    defaultSort: '-started_at',
  }),
  defineResource({
    key: 'schedules',
    group: 'schedules',
    noun: 'schedule',
    plural: 'schedules',
    titleField: 'name',
    ops: {
      list: 'schedules.list',
      show: 'schedules.show',
      create: 'schedules.create',
      update: 'schedules.update',
      delete: 'schedules.delete',
      bulkDelete: 'schedules.bulk_delete',
    },
    columns: [
      { key: 'name', sortable: true },
      { key: 'frequency', kind: 'status', sortable: true },
      { key: 'start_at', label: 'Starts', kind: 'datetime', sortable: true },
      { key: 'time_zone', label: 'Time zone' },
      { key: 'next_run_at', label: 'Next run', kind: 'datetime', sortable: true },
      { key: 'scans_count', label: 'Scans', kind: 'number' },
    ],
    filters: ['frequency'],
    alsoChanges: ['scans'],
    form: () => import('@/components/config/ScheduleFormDialog.vue'),
  }),
  defineResource({
    key: 'hosts',
    group: 'hosts',
    noun: 'host',
    plural: 'hosts',
    titleField: 'ip',
    ops: { list: 'hosts.list', show: 'hosts.details' },
    columns: [
      { key: 'ip', label: 'IP', sortable: true },
      { key: 'hostname', sortable: true },
      { key: 'os', label: 'OS' },
      { key: 'max_severity', label: 'Max severity', kind: 'severity', sortable: true },
      { key: 'vulnerabilities_count', label: 'Findings', kind: 'number', sortable: true },
      { key: 'risk_score', label: 'Risk', kind: 'number', sortable: true },
      { key: 'last_seen_at', label: 'Last seen', kind: 'datetime', sortable: true },
    ],
    filters: ['max_severity', 'scan_id', 'target_id'],
    related: [{ label: 'Vulnerabilities', resource: 'vulnerabilities', filter: 'host_id' }],
    // Its asset context, set by its address, edited in place (issue 37 §2).
    panels: [{ label: 'Asset context', op: 'hosts.details', component: ASSET_PANEL }],
    defaultSort: '-risk_score',
  }),
  defineResource({
    key: 'scanners',
    group: 'scanners',
    noun: 'scanner',
    plural: 'scanners',
    titleField: 'name',
    ops: {
      list: 'scanners.list',
      show: 'scanners.show',
      create: 'scanners.create',
      update: 'scanners.update',
      delete: 'scanners.delete',
    },
    columns: [
      { key: 'name', sortable: true },
      { key: 'host' },
      { key: 'app_type', label: 'Type', kind: 'status' },
      { key: 'activated', kind: 'boolean', width: 100 },
      { key: 'verification_status', label: 'Verified', kind: 'status' },
      { key: 'last_verified_at', label: 'Last verified', kind: 'datetime' },
    ],
    filters: ['app_type'],
    rowActions: [
      { op: 'scanners.activate', label: 'Activate', when: activeOnly },
      { op: 'scanners.deactivate', label: 'Deactivate', confirm: 'danger', when: activated },
      {
        op: 'scanners.verify',
        label: 'Verify…',
        dialog: () => import('@/components/config/ScannerVerifyDialog.vue'),
      },
      { op: 'scanners.update_app_type', label: 'Change type…' },
      { op: 'scanners.assign_organization', label: 'Assign organization…' },
    ],
    views: [{ label: 'Activated', op: 'scanners.activated' }],
    fields: {
      organization_id: { label: 'Organization', picker: 'organizations' },
      app_type: { label: 'Product' },
    },
  }),
  defineResource({
    key: 'port_lists',
    group: 'port_lists',
    noun: 'port list',
    plural: 'port lists',
    titleField: 'name',
    ops: {
      list: 'port_lists.list',
      show: 'port_lists.show',
      create: 'port_lists.create',
      update: 'port_lists.update',
      delete: 'port_lists.delete',
    },
    columns: [
      { key: 'name', sortable: true },
      { key: 'app_type', label: 'Type', kind: 'status' },
      { key: 'port_count', label: 'Ports', kind: 'number', sortable: true },
      { key: 'activated', kind: 'boolean', width: 100 },
      { key: 'synced_at', label: 'Synced', kind: 'datetime' },
    ],
    filters: ['app_type'],
    rowActions: [
      { op: 'port_lists.activate', label: 'Activate', when: activeOnly },
      { op: 'port_lists.deactivate', label: 'Deactivate', confirm: 'danger', when: activated },
      {
        op: 'port_lists.sync',
        label: 'Sync…',
        confirm: 'costly',
        when: activated,
        dialog: () => import('@/components/config/PortListSyncDialog.vue'),
      },
      {
        op: 'port_lists.add_range',
        label: 'Edit ranges…',
        dialog: () => import('@/components/config/PortRangesDialog.vue'),
      },
      { op: 'port_lists.update_app_type', label: 'Change type…' },
    ],
    panels: [
      {
        label: 'Port ranges',
        op: 'port_lists.show',
        component: () => import('@/components/config/PortRangeEditor.vue'),
      },
    ],
    views: [{ label: 'Activated', op: 'port_lists.activated' }],
    fields: { app_type: { label: 'Product' } },
  }),
  defineResource({
    key: 'credentials',
    group: 'credentials',
    noun: 'credential',
    plural: 'credentials',
    titleField: 'name',
    ops: {
      list: 'credentials.list',
      show: 'credentials.show',
      create: 'credentials.create',
      update: 'credentials.update',
      delete: 'credentials.delete',
    },
    columns: [
      { key: 'name', sortable: true },
      { key: 'kind', kind: 'status' },
      { key: 'username' },
      { key: 'has_secret', label: 'Secret set', kind: 'boolean' },
      { key: 'secret_updated_at', label: 'Secret changed', kind: 'datetime' },
    ],
    filters: ['kind'],
    // The secret is write-only: never prefilled, sent only when typed.
    form: () => import('@/components/config/CredentialFormDialog.vue'),
  }),
]
