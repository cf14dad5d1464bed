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
