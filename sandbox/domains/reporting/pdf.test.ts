import { describe, expect, it } from 'vitest'
import { buildPdf, pdfString, type PdfDocument } from './pdf'

const doc: PdfDocument = {
  title: 'Weekly external scan (PCI)',
  createdAt: '2025-03-04T05:06:07Z',
  blocks: [
    { kind: 'heading', text: 'Weekly external scan' },
    { kind: 'text', text: 'Scan: scn-001 \\ back-slash and (parentheses) and café and 漢字' },
    {
      kind: 'table',
      columns: [
        { title: 'Severity', width: 100 },
        { title: 'Finding', width: 395 },
      ],
      rows: Array.from({ length: 140 }, (_, i) => [i % 2 ? 'high' : 'low', `Finding ${i}`]),
    },
  ],
}

/** Reads the xref table and checks each entry points at "<n> 0 obj". */
function checkXref(pdf: Buffer): number {
  const text = pdf.toString('latin1')
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1])
  expect(text.slice(startxref, startxref + 5)).toBe('xref\n')
  const head = /^xref\n0 (\d+)\n/.exec(text.slice(startxref))!
  const count = Number(head[1])
  let at = startxref + head[0].length
  expect(text.slice(at, at + 20)).toBe('0000000000 65535 f \n')
  for (let n = 1; n < count; n++) {
    at += 20
    const entry = text.slice(at, at + 20)
    expect(entry).toMatch(/^\d{10} 00000 n \n$/)
    const offset = Number(entry.slice(0, 10))
    expect(text.slice(offset, offset + `${n} 0 obj`.length), `object ${n}`).toBe(`${n} 0 obj`)
  }
  expect(text).toContain(`trailer\n<< /Size ${count} /Root 1 0 R /Info 5 0 R >>`)
  return count
}

describe('the PDF writer', () => {
  it('writes a PDF 1.4 file whose cross-reference offsets point at every object', () => {
    const pdf = buildPdf(doc)
    expect(pdf.subarray(0, 9).toString('latin1')).toBe('%PDF-1.4\n')
    expect(checkXref(pdf)).toBeGreaterThan(7)
  })

  it('declares stream lengths that match the stream bytes', () => {
    const text = buildPdf(doc).toString('latin1')
    const streams = [...text.matchAll(/<< \/Length (\d+) >>\nstream\n/g)]
    expect(streams.length).toBeGreaterThan(1)
    for (const m of streams) {
      const start = m.index + m[0].length
      expect(text.slice(start + Number(m[1]), start + Number(m[1]) + 10)).toBe('\nendstream')
    }
  })

  it('breaks a long table onto more pages and counts them', () => {
    const text = buildPdf(doc).toString('latin1')
    const pages = Number(/\/Count (\d+)/.exec(text)?.[1])
    expect(pages).toBeGreaterThanOrEqual(3)
    expect(text).toContain(`(Page ${pages} of ${pages}) Tj`)
    expect(text).toContain('(Finding 139) Tj')
  })

  it('gives the same bytes for the same document', () => {
    expect(buildPdf(doc).equals(buildPdf(structuredClone(doc)))).toBe(true)
    expect(buildPdf({ ...doc, title: 'Other' }).equals(buildPdf(doc))).toBe(false)
  })

  it('escapes string delimiters and encodes Latin-1 while replacing other characters', () => {
    expect(pdfString('a(b)c\\d')).toBe('(a\\(b\\)c\\\\d)')
    expect(pdfString('café 漢')).toBe('(caf\\351 ?)')
  })
})
