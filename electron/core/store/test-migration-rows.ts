// Fixtures of the store's upgrade test: representative rows of every table at each schema
// version, and the values the columns added later take on when those rows are migrated.

export type Row = Record<string, string | number | Buffer | null>

export const T1 = '2024-03-01T08:00:00.000Z'
const T2 = '2024-03-02T09:30:00.000Z'
const SHA = 'a'.repeat(64)

/** Representative rows of every table that exists at `version`, with that version's columns. */
export function rowsAt(version: number): Record<string, Row[]> {
  const signIn = (extra: Row): Row => (version >= 3 ? extra : {})
  const rows: Record<string, Row[]> = {
    accounts: [
      {
        id: 'acc-1',
        label: 'Acme',
        base_url: 'https://scanner.example.com',
        username: 'analyst@example.com',
        release: 'latest',
        color: '#3366ff',
        auth_method: 'password',
        is_demo: 0,
        allow_insecure_http: 0,
        created_at: T1,
        updated_at: T2,
        ...signIn({
          ca_bundle: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
          remember_password: 1,
          impersonating: JSON.stringify({ userId: 'usr-7', email: 'c@example.com', since: T2 }),
        }),
      },
      {
        id: 'acc-2',
        label: 'Demo',
        base_url: 'http://127.0.0.1:4010',
        username: 'token',
        release: '2023.1',
        color: '#ff6633',
        auth_method: 'access_token',
        is_demo: 1,
        allow_insecure_http: 1,
        created_at: T1,
        updated_at: T1,
        ...signIn({ ca_bundle: null, remember_password: 0, impersonating: null }),
      },
    ],
    settings: [
      { key: 'theme', value: '"dark"' },
      { key: 'maxDownloadBytes', value: '104857600' },
      { key: 'folders', value: JSON.stringify({ 'acc-1': '/home/u/Reports' }) },
    ],
  }
  if (version >= 2) {
    const saq = (extra: Row): Row => (version >= 5 ? extra : {})
    rows.export_jobs = [
      {
        id: 'job-1',
        account_id: 'acc-1',
        kind: 'report',
        resource_id: 'rep-1',
        resource_name: 'Quarterly',
        format: 'pdf',
        state: 'verified',
        phase: 'verify',
        error: null,
        target_path: '/home/u/Reports/Quarterly.pdf',
        path: '/home/u/Reports/Quarterly.pdf',
        sha256: SHA,
        ledger_id: 'led-1',
        generation_started_at: T1,
        created_at: T1,
        updated_at: T2,
        ...saq({ saq_facts: null }),
      },
      {
        id: 'job-2',
        account_id: 'acc-2',
        kind: 'advanced_report',
        resource_id: 'adv-1',
        resource_name: 'All hosts',
        format: 'csv',
        state: 'failed',
        phase: 'download',
        error: JSON.stringify({ code: 'OFFLINE', message: 'The service cannot be reached.' }),
        target_path: null,
        path: null,
        sha256: null,
        ledger_id: null,
        generation_started_at: null,
        created_at: T2,
        updated_at: T2,
        ...saq({ saq_facts: null }),
      },
    ]
    rows.file_ledger = [
      {
        id: 'led-1',
        account_id: 'acc-1',
        account_label: 'Acme',
        kind: 'report',
        resource_id: 'rep-1',
        resource_name: 'Quarterly',
        format: 'pdf',
        path: '/home/u/Reports/Quarterly.pdf',
        size: 48213,
        sha256: SHA,
        verdict: 'verified',
        detail: null,
        downloaded_at: T2,
        verified_at: T2,
        ...saq({ saq_type: null, saq_status: null, requirement: null }),
      },
      {
        id: 'led-2',
        account_id: 'acc-gone',
        account_label: 'Removed account',
        kind: 'advanced_report',
        resource_id: 'adv-9',
        resource_name: 'Old hosts',
        format: 'csv',
        path: '/home/u/Reports/Old hosts.csv',
        size: 0,
        sha256: 'b'.repeat(64),
        verdict: 'mismatch',
        detail: 'The service reports another digest.',
        downloaded_at: T1,
        verified_at: null,
        ...saq({ saq_type: null, saq_status: null, requirement: null }),
      },
    ]
    if (version >= 5) {
      rows.export_jobs.push({
        id: 'job-3',
        account_id: 'acc-1',
        kind: 'saq',
        resource_id: 'saq-4',
        resource_name: 'SAQ A 2024',
        format: 'pdf',
        state: 'queued',
        phase: 'generate',
        error: null,
        target_path: null,
        path: null,
        sha256: null,
        ledger_id: null,
        generation_started_at: null,
        created_at: T2,
        updated_at: T2,
        saq_facts: JSON.stringify({ type: 'A', status: 'Compliant' }),
      })
      rows.file_ledger.push({
        id: 'led-3',
        account_id: 'acc-1',
        account_label: 'Acme',
        kind: 'saq_evidence',
        resource_id: 'saq-4',
        resource_name: 'firewall.png',
        format: 'file',
        path: '/home/u/Evidence/firewall.png',
        size: 1024,
        sha256: 'c'.repeat(64),
        verdict: 'recorded',
        detail: null,
        downloaded_at: T2,
        verified_at: null,
        saq_type: 'A',
        saq_status: 'Compliant',
        requirement: '1.2.1',
      })
    }
  }
  if (version >= 4) {
    rows.drafts = [
      {
        account_id: 'acc-1',
        kind: 'scan-wizard',
        key: 'new',
        data: JSON.stringify({ step: 2, targets: ['tgt-1'] }),
        saved_at: T1,
      },
      {
        account_id: 'acc-2',
        kind: 'saq',
        key: 'saq-4',
        data: JSON.stringify({ answers: { '1.2.1': 'yes' } }),
        saved_at: T2,
      },
    ]
  }
  if (version >= 6) {
    rows.keychain_tombstones = [
      { account_id: 'acc-1', kind: 'session_token', created_at: T1 },
      { account_id: 'acc-gone', kind: 'password', created_at: T2 },
    ]
  }
  if (version >= 7) {
    rows.outbox = [
      {
        id: 'out-1',
        seq: 1,
        account_id: 'acc-1',
        account_label: 'Acme',
        op: 'notifications.mark_read',
        input: JSON.stringify({ ids: ['ntf-1'] }),
        target: 'ntf-1',
        state: 'failed',
        error: JSON.stringify({ code: 'NOT_FOUND', message: 'gone' }),
        attempts: 1,
        created_at: T1,
        last_tried_at: T2,
      },
    ]
  }
  if (version >= 11) {
    rows.run_snapshots = [
      {
        account_id: 'acc-1',
        scan_id: 'scn-1',
        run_id: 'run-1',
        finished_at: T1,
        taken_at: T2,
        findings: 3,
        bytes: 14,
        sealed: Buffer.from('sealed findings'),
      },
    ]
  }
  if (version >= 13) {
    rows.bulk_runs = [
      {
        id: 'run-1',
        account_id: 'acc-1',
        action: 'exceptions.create',
        sealed: Buffer.from('sealed run'),
        created_at: T1,
        updated_at: T2,
      },
    ]
    rows.bulk_items = [
      {
        write_id: 'write-1',
        run_id: 'run-1',
        seq: 0,
        state: 'done',
        attempts: 1,
        sent_at: T2,
        sealed: Buffer.from('sealed item'),
      },
    ]
  }
  if (version >= 14) rows.dashboard_visits = [{ account_id: 'acc-1', seen_at: T2 }]
  if (version >= 15) {
    rows.remediation_policies = [
      {
        account_id: 'acc-1',
        data: '{"policy":{"critical":15,"high":30,"medium":90,"low":180},"notify":true}',
        saved_at: T2,
      },
    ]
  }
  if (version >= 16) {
    rows.daily_totals = [
      {
        account_id: 'acc-1',
        day: '2026-11-20',
        taken_at: T2,
        sealed: Buffer.from('sealed totals'),
      },
    ]
  }
  if (version >= 17) {
    rows.file_ledger.push({
      id: 'led-4',
      account_id: 'acc-1',
      account_label: 'Acme',
      kind: 'saq_evidence',
      resource_id: 'saq-4',
      resource_name: 'SAQ A 2024',
      format: 'file',
      path: '/home/u/Reports/SAQ/Evidence/saq-4/11.3.2/Quarterly.pdf',
      size: 2048,
      sha256: 'd'.repeat(64),
      verdict: 'verified',
      detail: null,
      downloaded_at: T2,
      verified_at: T2,
      saq_type: 'A',
      saq_status: 'draft',
      requirement: '11.3.2',
      linked_at: null,
      origin: JSON.stringify({ operation: 'reports.download', resourceId: 'rep-1', at: T2 }),
    })
  }
  if (version >= 18) rows.dashboard_left = [{ account_id: 'acc-1', left_at: T2, until: T1 }]
  if (version >= 19) {
    rows.intel_packs = [
      {
        id: 1,
        feed: 'kev',
        edition: '2026.11.30',
        published: T1,
        sha256: 'a'.repeat(64),
        bytes: 1200,
        entries: 1,
        imported_at: T2,
        source: '/home/me/known_exploited_vulnerabilities.json',
      },
    ]
    rows.intel_kev = [
      {
        pack_id: 1,
        cve: 'CVE-2021-44228',
        date_added: '2021-12-10',
        due_date: '2021-12-24',
        ransomware: 1,
        name: 'Apache Log4j2 Remote Code Execution Vulnerability',
      },
    ]
    rows.intel_epss = []
  }
  return rows
}

/** Values of columns added after `version` that its rows take on when migrated. */
export function addedDefaults(table: string, version: number): Row {
  // No row of any version locks its copy (migration 10): it stays 0.
  if (table === 'accounts' && version < 3) {
    return { ca_bundle: null, remember_password: 0, impersonating: null, copy_locked: 0 }
  }
  if (table === 'accounts') return { copy_locked: 0 }
  if (table === 'export_jobs' && version < 5) return { saq_facts: null }
  // Kept in their plain columns until the account's key seals them (store/sealing.ts).
  if (table === 'drafts') return { sealed: null }
  // No outbox row here carries a bulk write (migration 13) or is sealed yet: both stay NULL.
  if (table === 'outbox') return { sealed: null, bulk_write: null }
  // No row before migration 17 records an evidence origin: it stays NULL.
  if (table === 'file_ledger' && version < 5) {
    return { saq_type: null, saq_status: null, requirement: null, linked_at: null, origin: null }
  }
  // No row of any version sets when evidence was re-pointed (migration 8): it stays NULL; nor an
  // origin unless it names one (a row made before migration 17, or one of its rows without it).
  if (table === 'file_ledger') return { linked_at: null, origin: null }
  return {}
}
