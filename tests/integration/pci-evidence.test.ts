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

  it('attaches the findings behind 6.3.3 as CSV: every high and critical finding, hashed, with the query as origin', async () => {
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
    const out = await s.t.ok<ApiCallOutput>('api.call', {
      accountId: s.account.id,
      op: 'vulnerabilities.list',
      input: { query: { cvss_score_min: 7, per_page: 1 } },
    })
    const total = (out.data as { meta: { pagination: { total_count: number } } }).meta.pagination
      .total_count
    expect(total).toBeGreaterThan(0)
    expect(lines).toHaveLength(total + 1)
    for (const line of lines.slice(1)) expect(line).toMatch(/"(critical|high)"/)
    expect(entry).toMatchObject({
      verdict: 'recorded',
      saq: { requirement: '6.3.3' },
      origin: {
        operation: 'vulnerabilities.list',
        resourceId: null,
        query: { cvss_score_min: 7 },
      },
    })
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
