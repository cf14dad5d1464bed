/**
 * A tiny, hand-written PDF 1.4 writer: A4 pages of text lines and simple tables in the standard
 * Type1 fonts Helvetica and Helvetica-Bold (WinAnsiEncoding), a cross-reference table with exact
 * byte offsets, and an Info dictionary. Same input, same bytes.
 */

/** One block of a document, laid out top to bottom. */
export type PdfBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'text'; text: string; bold?: boolean }
  | { kind: 'table'; columns: { title: string; width: number }[]; rows: string[][] }
  | { kind: 'spacer' }

/** A document: its title (printed and in the Info dictionary), creation date and blocks. */
export interface PdfDocument {
  title: string
  /** ISO date-time written as the Info CreationDate (keeps the bytes deterministic). */
  createdAt: string
  blocks: PdfBlock[]
}

const PAGE_W = 595
const PAGE_H = 842
const MARGIN = 50
const CONTENT_W = PAGE_W - 2 * MARGIN
const TOP = PAGE_H - MARGIN
const BOTTOM = MARGIN + 20

// Helvetica advance widths (1/1000 em) of the printable ASCII characters 32..126 (Adobe AFM).
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
  556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
  611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
  667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
  222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
]

/** Width of `text` in points at `size` (bold is approximated as 6% wider). */
export function textWidth(text: string, size: number, bold = false): number {
  let units = 0
  for (const ch of text) {
    const code = ch.charCodeAt(0)
    units += code >= 32 && code <= 126 ? HELVETICA[code - 32] : 556
  }
  return (units * size * (bold ? 1.06 : 1)) / 1000
}

/** Cuts `text` to fit `width` points, ending with "..." when cut. */
export function fitText(text: string, size: number, width: number, bold = false): string {
  if (textWidth(text, size, bold) <= width) return text
  let out = text
  while (out.length > 0 && textWidth(`${out}...`, size, bold) > width) out = out.slice(0, -1)
  return `${out}...`
}

/** Breaks `text` into lines no wider than `width` points. */
export function wrapText(text: string, size: number, width: number): string[] {
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word
      if (textWidth(candidate, size) <= width || !line) line = fitText(candidate, size, width)
      else {
        lines.push(line)
        line = fitText(word, size, width)
      }
    }
    lines.push(line)
  }
  return lines
}

/** Encodes text as a PDF literal string in WinAnsiEncoding (Latin-1 subset; others become '?'). */
export function pdfString(text: string): string {
  let out = '('
  for (const ch of text) {
    const code = ch.codePointAt(0)!
    if (ch === '\\' || ch === '(' || ch === ')') out += `\\${ch}`
    else if (code >= 32 && code <= 126) out += ch
    else if (code >= 160 && code <= 255) out += `\\${code.toString(8).padStart(3, '0')}`
    else out += '?'
  }
  return `${out})`
}

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2)
}

function textOp(font: 'F1' | 'F2', size: number, x: number, y: number, text: string): string {
  return `BT /${font} ${size} Tf 1 0 0 1 ${num(x)} ${num(y)} Tm ${pdfString(text)} Tj ET`
}

/** Lays the blocks out on pages; returns one content stream per page. */
function layout(doc: PdfDocument): string[] {
  const pages: string[][] = []
  let ops: string[] = []
  let y = TOP
  const newPage = () => {
    ops = []
    pages.push(ops)
    y = TOP
    ops.push(textOp('F1', 8, MARGIN, PAGE_H - 30, fitText(doc.title, 8, CONTENT_W)))
  }
  const need = (h: number) => {
    if (y - h < BOTTOM) newPage()
  }
  newPage()
  for (const block of doc.blocks) {
    if (block.kind === 'spacer') y -= 8
    else if (block.kind === 'heading') {
      need(24)
      y -= 18
      ops.push(textOp('F2', 14, MARGIN, y, fitText(block.text, 14, CONTENT_W, true)))
      y -= 6
    } else if (block.kind === 'text') {
      for (const line of wrapText(block.text, 10, CONTENT_W)) {
        need(14)
        y -= 14
        ops.push(textOp(block.bold ? 'F2' : 'F1', 10, MARGIN, y, line))
      }
    } else {
      const header = () => {
        need(30)
        y -= 16
        ops.push(`0.88 g ${MARGIN} ${num(y - 4)} ${CONTENT_W} 15 re f 0 g`)
        let x = MARGIN + 3
        for (const col of block.columns) {
          ops.push(textOp('F2', 9, x, y, fitText(col.title, 9, col.width - 6, true)))
          x += col.width
        }
      }
      header()
      for (const row of block.rows) {
        if (y - 13 < BOTTOM) {
          newPage()
          header()
        }
        y -= 13
        let x = MARGIN + 3
        block.columns.forEach((col, i) => {
          ops.push(textOp('F1', 9, x, y, fitText(row[i] ?? '', 9, col.width - 6)))
          x += col.width
        })
        ops.push(
          `0.8 G 0.4 w ${MARGIN} ${num(y - 4)} m ${MARGIN + CONTENT_W} ${num(y - 4)} l S 0 G`,
        )
      }
    }
  }
  return pages.map((p, i) =>
    [...p, textOp('F1', 8, PAGE_W - MARGIN - 60, 30, `Page ${i + 1} of ${pages.length}`)].join(
      '\n',
    ),
  )
}

/** PDF date string D:YYYYMMDDHHmmSSZ from an ISO date-time. */
function pdfDate(iso: string): string {
  const d = new Date(iso)
  const t = Number.isNaN(d.getTime()) ? new Date(0) : d
  return `D:${t.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`
}

/** Builds the whole file. */
export function buildPdf(doc: PdfDocument): Buffer {
  const streams = layout(doc)
  const objects: string[] = []
  const pageIds = streams.map((_, i) => 6 + 2 * i)
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>'
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'
  objects[4] =
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>'
  objects[5] = `<< /Title ${pdfString(doc.title)} /Producer (ScanDesk sandbox) /CreationDate (${pdfDate(doc.createdAt)}) >>`
  streams.forEach((content, i) => {
    const pageId = pageIds[i]
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageId + 1} 0 R >>`
    const bytes = Buffer.byteLength(content, 'latin1')
    objects[pageId + 1] = `<< /Length ${bytes} >>\nstream\n${content}\nendstream`
  })

  const parts: Buffer[] = []
  let offset = 0
  const push = (s: string) => {
    const b = Buffer.from(s, 'latin1')
    parts.push(b)
    offset += b.length
  }
  push('%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n')
  const offsets: number[] = []
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = offset
    push(`${id} 0 obj\n${objects[id]}\nendobj\n`)
  }
  const xref = offset
  const size = objects.length
  let table = `xref\n0 ${size}\n0000000000 65535 f \n`
  for (let id = 1; id < size; id++) table += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`
  push(table)
  push(`trailer\n<< /Size ${size} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`)
  return Buffer.concat(parts)
}
