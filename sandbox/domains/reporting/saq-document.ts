import type { Row } from '../../types'
import { buildPdf, type PdfBlock } from './pdf'
import { templateFor } from './saq-templates'

const RESPONSE_LABEL: Record<string, string> = {
  yes: 'Yes',
  no: 'No',
  not_applicable: 'Not applicable',
  compensating_control: 'Compensating control',
}

interface Answer {
  requirement: string
  response: string
  note?: string | null
}

/** The PDF of an SAQ: header facts, then each section's requirements with their answers. */
export function saqPdf(row: Row): Buffer {
  const a = row.attributes
  const answers = new Map(((a.answers as Answer[]) ?? []).map((x) => [x.requirement, x]))
  const blocks: PdfBlock[] = [
    { kind: 'heading', text: String(a.name) },
    { kind: 'text', text: `Self-assessment questionnaire ${row.id} - type ${String(a.saq_type)}` },
    {
      kind: 'text',
      text:
        a.status === 'approved'
          ? `Status: approved on ${String(a.approved_at ?? '').slice(0, 10)} (${String(a.compliance ?? '')})`
          : 'Status: draft',
    },
  ]
  for (const section of templateFor(String(a.saq_type))) {
    blocks.push(
      { kind: 'spacer' },
      { kind: 'heading', text: `${section.number}. ${section.title}` },
    )
    blocks.push({
      kind: 'table',
      columns: [
        { title: 'Requirement', width: 62 },
        { title: 'Title', width: 228 },
        { title: 'Answer', width: 95 },
        { title: 'Note', width: 110 },
      ],
      rows: section.requirements.map((r) => {
        const answer = answers.get(r.number)
        return [
          r.number,
          r.title,
          answer ? (RESPONSE_LABEL[answer.response] ?? answer.response) : '-',
          answer?.note ?? '',
        ]
      }),
    })
  }
  return buildPdf({ title: String(a.name), createdAt: String(a.created_at ?? ''), blocks })
}
