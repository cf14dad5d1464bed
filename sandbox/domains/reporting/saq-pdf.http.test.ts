// SAQ PDFs over HTTP: the questionnaire's document, rendered by pdftoppm.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { answersFile } from '@contract/catalog/saq'
import { SAQ_TEXT_MAX } from '@contract/saq'
import { call, download, useReportingSandbox } from './test-harness'

// pdftoppm (poppler-utils) is installed by .ci/run; under CI=true its absence fails, never skips.
const hasPdftoppm = (() => {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

/** Renders every page with pdftoppm; returns how many PNG pages it wrote. */
function renderPages(bytes: Buffer): number {
  const dir = mkdtempSync(join(tmpdir(), 'saq-pdf-'))
  try {
    writeFileSync(join(dir, 'saq.pdf'), bytes)
    execFileSync('pdftoppm', ['-png', '-r', '30', join(dir, 'saq.pdf'), join(dir, 'page')], {
      stdio: 'pipe',
    })
    return readdirSync(dir).filter((f) => f.endsWith('.png')).length
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('SAQ PDFs over HTTP', () => {
  const s = useReportingSandbox()

  it('downloads an SAQ as a PDF that pdftoppm renders', async () => {
    const pdf = await download(s.sb, '/v2/saq/saq-005?format=pdf', s.admin)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    const text = pdf.bytes.toString('latin1')
    for (const s of [
      '(Acme platform SAQ D 2025) Tj',
      '(Template version: 4.0.1) Tj',
      '(Compliance: Non-Compliant) Tj',
      '(Executive summary) Tj',
      '(Summary of answers) Tj',
      '(Appendix A: Compensating control worksheets) Tj',
      '(Appendix B: Requirements not in place) Tj',
      '(3.5.1) Tj',
      '(Owner: Priya Shah, SOC lead; due: 2026-03-31) Tj',
    ])
      expect(text, s).toContain(s)
    expect(text).toMatch(
      /\(Attested by Dana Reyes, Chief Information Security Officer, on \d{4}-\d{2}-\d{2}\) Tj/,
    )
    if (hasPdftoppm || process.env.CI === 'true') expect(renderPages(pdf.bytes)).toBeGreaterThan(5)

    // A draft with a maximal explanation still renders (the text is cut, not overflowing).
    const draft = await call(s.sb, 'POST', '/v2/saq', {
      token: s.admin,
      body: {
        saq_type: 'A',
        name: 'Long texts',
        answers: [
          {
            requirement: '8.3.1',
            response: 'not_applicable',
            explanation: `${'word '.repeat(790)}end`,
          },
          {
            requirement: '8.3.6',
            response: 'not_applicable',
            explanation: 'y'.repeat(SAQ_TEXT_MAX),
          },
        ],
      },
    })
    expect(draft.status).toBe(201)
    const long = await download(s.sb, `/v2/saq/${draft.json.data.id}?format=pdf`, s.admin)
    expect(long.status).toBe(200)
    expect(long.bytes.toString('latin1')).toContain('more characters in the questionnaire')
    if (hasPdftoppm || process.env.CI === 'true') expect(renderPages(long.bytes)).toBeGreaterThan(0)

    const json = await call(s.sb, 'GET', '/v2/saq/saq-002?format=json', { token: s.admin })
    expect(json.json.data.attributes.saq_type).toBe('A')
    expect(answersFile('saq.show', { format: 'pdf' })).toBe(true)
    expect(answersFile('saq.show', { format: 'json' })).toBe(false)
    expect(answersFile('saq.show', {})).toBe(false)
  })

  it('lists the evidence files the approval rests on, and the approval note (issue 36)', async () => {
    const template = await call(s.sb, 'GET', '/v2/saq/types/A/template', { token: s.admin })
    const required: string[] = template.json.data.attributes.sections
      .flatMap((x: { requirements: { number: string; required: boolean }[] }) => x.requirements)
      .filter((r: { required: boolean }) => r.required)
      .map((r: { number: string }) => r.number)
    const draft = await call(s.sb, 'POST', '/v2/saq', {
      token: s.admin,
      body: { saq_type: 'A', name: 'Evidence listed' },
    })
    const id = draft.json.data.id
    const report = 'a'.repeat(64)
    const csv = 'b'.repeat(64)
    const byHand = 'c'.repeat(64)
    const ok = await call(s.sb, 'PUT', `/v2/saq/${id}/approve`, {
      token: s.admin,
      body: {
        attestation: { signer_name: 'Dana Reyes', signer_title: 'CISO', date: '2026-11-20' },
        answers: required.map((n) => ({ requirement: n, response: 'in_place' })),
        note: 'Approved with 1 answer that contradicts the scan evidence, confirmed by the approver: 11.3.2 In Place.',
        evidence: [
          {
            requirement: '11.3.2',
            name: 'Perimeter - PCI report - rpt-003 - 2026-11-20.pdf',
            sha256: report,
            size: 48213,
            origin: {
              operation: 'reports.download',
              resource_id: 'rpt-003',
              query: { format: 'pdf' },
            },
            attached_at: '2026-11-19T10:00:00.000Z',
          },
          {
            requirement: '6.3.3',
            name: 'Findings 6.3.3 - Acme - 2026-11-20.csv',
            sha256: csv,
            size: 912,
            origin: {
              operation: 'vulnerabilities.list',
              resource_id: null,
              query: { cvss_score_min: 7, first_seen_before: '2026-10-20' },
            },
          },
          { requirement: '8.3.1', name: 'mfa-policy.txt', sha256: byHand, size: 12, origin: null },
        ],
      },
    })
    expect(ok.status).toBe(200)
    expect(ok.json.data.attributes.evidence).toHaveLength(3)
    const pdf = await download(s.sb, `/v2/saq/${id}?format=pdf`, s.admin)
    // The printed lines, joined: wrapping is the layout's business, the words are the test's.
    const printed = [...pdf.bytes.toString('latin1').matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)]
      .map((m) => m[1].replace(/\\(.)/g, '$1'))
      .join(' ')
    for (const phrase of [
      'Approval note Approved with 1 answer that contradicts the scan evidence',
      'Appendix C: Evidence files 3 files were before the approver.',
      `11.3.2 - Perimeter - PCI report - rpt-003 - 2026-11-20.pdf SHA-256 ${report} 48,213 bytes, attached 2026-11-19; origin: report rpt-003 of this service, downloaded and its SHA-256 verified with the service`,
      `6.3.3 - Findings 6.3.3 - Acme - 2026-11-20.csv SHA-256 ${csv} 912 bytes; origin: this service's findings list (cvss_score_min=7&first_seen_before=2026-10-20), written as CSV`,
      `8.3.1 - mfa-policy.txt SHA-256 ${byHand} 12 bytes; origin: attached by the assessor from their own computer`,
    ])
      expect(printed, phrase).toContain(phrase)
    if (hasPdftoppm || process.env.CI === 'true') expect(renderPages(pdf.bytes)).toBeGreaterThan(0)
    // A questionnaire approved without any says so.
    const seeded = await download(s.sb, '/v2/saq/saq-005?format=pdf', s.admin)
    expect(seeded.bytes.toString('latin1')).toContain('(The approval listed no evidence files.) Tj')
  })

  it.skipIf(!hasPdftoppm && process.env.CI !== 'true')(
    'renders every seeded SAQ with pdftoppm',
    async () => {
      for (const id of ['saq-001', 'saq-002', 'saq-003', 'saq-004', 'saq-006', 'saq-007']) {
        const pdf = await download(s.sb, `/v2/saq/${id}?format=pdf`, s.admin)
        expect(pdf.status, id).toBe(200)
        expect(renderPages(pdf.bytes), id).toBeGreaterThan(0)
      }
    },
  )
})
