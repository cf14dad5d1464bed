import type { CollectionSpec, SandboxRequest } from '../../types'
import { countHosts } from './addresses'
import { isOpen } from './evolution'

/** The collections of the scanning domain; every one is scoped to an organization. */
export const COLLECTIONS: Record<string, CollectionSpec> = {
  targets: {
    type: 'target',
    prefix: 'tgt',
    orgScoped: true,
    searchFields: ['name', 'address', 'description'],
    defaults: ({ body }: SandboxRequest) => ({
      description: null,
      tags: [],
      hosts_count: countHosts(
        typeof body === 'object' && body !== null && 'address' in body
          ? String(body.address ?? '')
          : '',
      ),
      last_scanned_at: null,
    }),
  },
  scans: { type: 'scan', prefix: 'scn', orgScoped: true, searchFields: ['name', 'description'] },
  scan_runs: { type: 'scan_run', prefix: 'run', orgScoped: true },
  hosts: { type: 'host', prefix: 'hst', orgScoped: true, searchFields: ['ip', 'hostname', 'os'] },
  vulnerabilities: {
    type: 'vulnerability',
    prefix: 'vul',
    orgScoped: true,
    searchFields: ['title', 'description', 'host_ip'],
    onlyUnderParent: (row) => !isOpen(row),
  },
  exceptions: {
    type: 'exception',
    prefix: 'exc',
    orgScoped: true,
    searchFields: ['reason', 'vulnerability_title', 'host_ip'],
  },
  schedules: { type: 'schedule', prefix: 'sch', orgScoped: true, searchFields: ['name'] },
  scanners: {
    type: 'scanner',
    prefix: 'scr',
    orgScoped: true,
    searchFields: ['name', 'host', 'description'],
    defaults: () => ({
      description: null,
      port: 8443,
      activated: false,
      version: null,
      verification_status: 'unverified',
      verification_message: null,
      last_verified_at: null,
    }),
  },
  port_lists: { type: 'port_list', prefix: 'prt', orgScoped: true, searchFields: ['name'] },
  credentials: {
    type: 'credential',
    prefix: 'crd',
    orgScoped: true,
    searchFields: ['name', 'username', 'description'],
  },
  chat_messages: { type: 'chat_message', prefix: 'chm', orgScoped: true },
  // Each organization's own settings: even the root administrator sees only their own
  // organization's profiles (every organization has the same five, by code).
  scan_profiles: {
    type: 'scan_profile',
    prefix: 'spr',
    orgScoped: true,
    ownOrganizationOnly: true,
    searchFields: ['name'],
  },
}
