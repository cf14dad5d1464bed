// PCI evidence from the service's data against the real sandbox over HTTP, the real SQLite ledger
// and real files: a report's PDF through the integrity pipeline and the findings CSV become a
// requirement's evidence with their SHA-256 and origin, and the audit bundle's manifest lists them
// with that origin.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ApiCallOutput } from '@contract/channels'
import type { AuditBundle, LedgerEntry } from '@contract/files'
import { findingsQuery, monthAgo, pciDataFor } from '@contract/pci/requirements'
import { startExportCore } from './exports-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'exports' })

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/** The report's PDF bytes straight from the sandbox (not through ScanDesk). */
async function sandboxPdf(id: string): Promise<Buffer> {
  const res = await fetch(`${s.sandbox.baseUrl}/v2/reports/${id}/download?format=pdf`, {
    headers: {
      'x-api-key': s.sandbox.apiKey,
      authorization: `Bearer ${s.sandbox.sessionFor('analyst@sandbox.test')}`,
    },
  })
  expect(res.status).toBe(200)
  return Buffer.from(await res.arrayBuffer())
}

async function approvedSaq(): Promise<{ id: string; attributes: Record<string, unknown> }> {
  const out = await s.t.ok<ApiCallOutput>('api.call', {
    accountId: s.account.id,
    op: 'saq.list',
    input: { query: { status: 'approved', per_page: 5 } },
  })
  return (out.data as { data: { id: string; attributes: Record<string, unknown> }[] }).data[0]
}

describe('PCI evidence from the service’s data', () => {
  it('attaches a verified report whose hash is the sandbox bytes’ hash, with its origin, and the manifest lists it', async () => {
    const saq = await approvedSaq()
    const before = Date.now()
    const entry = await s.t.ok<LedgerEntry>('saq.evidence.attachReport', {
      accountId: s.account.id,
      saqKey: saq.id,
      saqName: String(saq.attributes.name),
      saqType: String(saq.attributes.saq_type),
      saqStatus: 'approved',
      requirement: '11.3.2',
      reportId: 'rpt-003',
    })
    const bytes = await sandboxPdf('rpt-003')
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(entry.sha256).toBe(sha256(bytes))
    expect(sha256(fs.readFileSync(entry.path))).toBe(entry.sha256)
    expect(entry.path.startsWith(path.join(s.folder, 'SAQ', 'Evidence', saq.id, '11.3.2'))).toBe(
      true,
    )
    expect(entry).toMatchObject({
      kind: 'saq_evidence',
      verdict: 'verified',
      resourceId: saq.id,
      saq: { requirement: '11.3.2' },
      origin: {
        operation: 'reports.download',
        resourceId: 'rpt-003',
        query: { format: 'pdf' },
        accountId: s.account.id,
        account: 'Sandbox analyst',
      },
    })
    expect(Date.parse(entry.origin!.at)).toBeGreaterThanOrEqual(before - 1000)

    // kept across a reading of the ledger
    const listed = await s.t.ok<LedgerEntry[]>('saq.evidence.list', {
      accountId: s.account.id,
      saqKey: saq.id,
    })
    expect(listed.find((e) => e.id === entry.id)?.origin).toEqual(entry.origin)

    const bundle = await s.t.ok<AuditBundle>('saq.auditBundle', {
      accountId: s.account.id,
      saqIds: [saq.id],
    })
    const manifest = JSON.parse(fs.readFileSync(bundle.manifest, 'utf8'))
    const files = manifest.saqs[0].files as Record<string, unknown>[]
    const evidence = files.find((f) => f.kind === 'saq_evidence')
    expect(evidence).toMatchObject({
      sha256: sha256(bytes),
      requirement: '11.3.2',
      origin: {
        operation: 'reports.download',
        resource_id: 'rpt-003',
        account_id: s.account.id,
        account: 'Sandbox analyst',
        at: entry.origin!.at,
      },
    })
    const pdf = files.find((f) => f.kind === 'saq')
    expect(pdf?.origin).toBeNull()
  })

  it('attaches the findings behind 6.3.3 as CSV: every high and critical finding first seen more than a month ago, hashed, with the query as origin', async () => {
    const line = monthAgo(new Date())
    const entry = await s.t.ok<LedgerEntry>('saq.evidence.attachFindings', {
      accountId: s.account.id,
      saqKey: 'local-draft-1',
      saqName: 'Draft SAQ',
      saqType: 'C',
      requirement: '6.3.3',
    })
    const text = fs.readFileSync(entry.path, 'utf8')
    expect(sha256(fs.readFileSync(entry.path))).toBe(entry.sha256)
    const lines = text.trim().split('\n')
    expect(lines[0]).toContain('"severity"')

    // Brute force: every finding the sandbox lists, page by page, filtered here.
    type Row = { id: string; attributes: { severity: string; first_seen_at: string } }
    const all: Row[] = []
    for (let page = 1; ; page++) {
      const out = await s.t.ok<ApiCallOutput>('api.call', {
        accountId: s.account.id,
        op: 'vulnerabilities.list',
        input: { query: { page, per_page: 500 } },
      })
      const body = out.data as { data: Row[]; meta: { pagination: { total_pages: number } } }
      all.push(...body.data)
      if (page >= body.meta.pagination.total_pages) break
    }
    const severe = all.filter((f) => ['critical', 'high'].includes(f.attributes.severity))
    const aged = severe.filter(
      (f) => Date.parse(f.attributes.first_seen_at) < Date.parse(`${line}T00:00:00Z`),
    )
    // The line bites: some severe findings are older than the month, some are not.
    expect(aged.length).toBeGreaterThan(0)
    expect(aged.length).toBeLessThan(severe.length)
    expect(lines).toHaveLength(aged.length + 1)
    const csvIds = lines.slice(1).map((l) => l.split(',')[0].replace(/"/g, ''))
    expect(csvIds.sort()).toEqual(aged.map((f) => f.id).sort())

    // The count the filler shows is that query's total (one row asked).
    const query = findingsQuery(pciDataFor('6.3.3')!, new Date())
    const out = await s.t.ok<ApiCallOutput>('api.call', {
      accountId: s.account.id,
      op: 'vulnerabilities.list',
      input: { query: { ...query, per_page: 1 } },
    })
    expect(
      (out.data as { meta: { pagination: { total_count: number } } }).meta.pagination,
    ).toMatchObject({ total_count: aged.length })
    expect(entry).toMatchObject({
      verdict: 'recorded',
      saq: { requirement: '6.3.3' },
      origin: {
        operation: 'vulnerabilities.list',
        resourceId: null,
        query: { cvss_score_min: 7, first_seen_before: line },
      },
    })
  })

  it('without a download folder asks nothing of the service: NO_FOLDER before the report is generated (issue 36)', async () => {
    const bare = await startExportCore(s.sandbox, undefined, { noFolder: true })
    try {
      const files = async () => {
        const out = await bare.t.ok<ApiCallOutput>('api.call', {
          accountId: bare.account.id,
          op: 'reports.show',
          input: { path: { id: 'rpt-011' } },
        })
        return (out.data as { data: { attributes: { files?: Record<string, unknown> } } }).data
          .attributes.files
      }
      const before = await files()
      const target = {
        accountId: bare.account.id,
        saqKey: 'local-draft-1',
        saqName: 'Draft SAQ',
        saqType: 'A-EP',
        requirement: '11.3.2',
      }
      const err = await bare.t.err('saq.evidence.attachReport', { ...target, reportId: 'rpt-011' })
      expect(err.code).toBe('NO_FOLDER')
      // rpt-011 was never generated: it still is not (the service was asked nothing).
      expect(await files()).toEqual(before)
      expect((await bare.t.err('saq.evidence.attachFindings', target)).code).toBe('NO_FOLDER')
    } finally {
      await bare.t.close()
      fs.rmSync(bare.folder, { recursive: true, force: true })
    }
  })

  it('refuses findings for a requirement the service’s data does not speak to', async () => {
    const err = await s.t.err('saq.evidence.attachFindings', {
      accountId: s.account.id,
      saqKey: 'local-draft-1',
      saqName: 'Draft SAQ',
      saqType: 'C',
      requirement: '8.3.1',
    })
    expect(err.code).toBe('VALIDATION')
  })
})
