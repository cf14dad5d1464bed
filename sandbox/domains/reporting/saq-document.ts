import {
  SAQ_CCW_FIELDS,
  SAQ_COMPLIANCE_LABELS,
  SAQ_PAYMENT_CHANNEL_LABELS,
  SAQ_RESPONSE_LABELS,
  type SaqCompliance,
  type SaqResponse,
} from '@contract/saq'
import { summaryTable } from '@contract/saq-progress'
import type { Row } from '../../types'
import { answerMap, answersOf, templateOfRow } from './saq-answers'
import { buildPdf, textWidth, type PdfBlock } from './pdf'

/** Longest explanation printed under a section table (characters; the rest is cut). */
const EXPLANATION_MAX = 900
/** Longest worksheet field or action printed in the appendix (characters). */
const APPENDIX_MAX = 1500

/** Cuts a long text at a word boundary, ending with "..." and a note of what was left out. */
export function cut(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim()
  if (clean.length <= max) return clean
  const head = clean.slice(0, max)
  const space = head.lastIndexOf(' ')
  const kept = space > max * 0.6 ? head.slice(0, space) : head
  return `${kept}... [${(clean.length - kept.length).toLocaleString('en-US')} more characters in the questionnaire]`
}

const SHORT_LABEL: Record<SaqResponse, string> = {
  in_place: 'In Place',
  in_place_ccw: 'CCW',
  in_place_remediation: 'Remed.',
  not_applicable: 'N/A',
  not_tested: 'Not Tested',
  not_in_place: 'Not in Place',
}

interface Summary {
  payment_channels?: string[]
  environment?: string
  service_providers?: { name: string; services?: string }[]
}

interface Attestation {
  signer_name?: string
  signer_title?: string
  date?: string
}

function summaryBlocks(summary: Summary | null | undefined): PdfBlock[] {
  const blocks: PdfBlock[] = [{ kind: 'spacer' }, { kind: 'heading', text: 'Executive summary' }]
  if (!summary) return [...blocks, { kind: 'text', text: 'No executive summary was given.' }]
  const channels = (summary.payment_channels ?? []).map(
    (c) => SAQ_PAYMENT_CHANNEL_LABELS[c as keyof typeof SAQ_PAYMENT_CHANNEL_LABELS] ?? c,
  )
  blocks.push(
    { kind: 'text', text: 'Payment channels', bold: true },
    { kind: 'text', text: channels.length ? channels.join(', ') : 'Not stated' },
    { kind: 'text', text: 'Cardholder data environment', bold: true },
    {
      kind: 'text',
      text: summary.environment ? cut(summary.environment, APPENDIX_MAX) : 'Not stated',
    },
    { kind: 'text', text: 'Third-party service providers', bold: true },
  )
  const providers = summary.service_providers ?? []
  if (!providers.length) blocks.push({ kind: 'text', text: 'None listed' })
  else
    blocks.push({
      kind: 'table',
      columns: [
        { title: 'Provider', width: 170 },
        { title: 'Services', width: 325 },
      ],
      rows: providers.map((p) => [p.name, p.services ?? '']),
    })
  return blocks
}

/** One evidence file the approval listed (catalog `saqEvidenceFile`). */
interface EvidenceFile {
  requirement: string
  name: string
  sha256: string
  size: number
  origin?: {
    operation: string
    resource_id?: string | null
    query?: Record<string, unknown> | null
  } | null
  attached_at?: string
}

/** Where an evidence file came from, in words. */
export function originText(origin: EvidenceFile['origin']): string {
  if (!origin) return 'attached by the assessor from their own computer'
  if (origin.operation === 'reports.download')
    return `report ${origin.resource_id ?? '?'} of this service, downloaded and its SHA-256 verified with the service`
  const query = Object.entries(origin.query ?? {})
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('&')
  if (origin.operation === 'vulnerabilities.list')
    return `this service's findings list${query ? ` (${query})` : ''}, written as CSV`
  return `${origin.operation}${origin.resource_id ? ` ${origin.resource_id}` : ''}${query ? ` (${query})` : ''}`
}

/**
 * Appendix C: the evidence files the approval rests on (kept by the assessor; the service has no
 * upload), each with its requirement, name, size, SHA-256 and origin.
 */
function evidenceBlocks(evidence: EvidenceFile[] | null | undefined): PdfBlock[] {
  const blocks: PdfBlock[] = [
    { kind: 'spacer' },
    { kind: 'heading', text: 'Appendix C: Evidence files' },
  ]
  const list = evidence ?? []
  if (!list.length)
    return [...blocks, { kind: 'text', text: 'The approval listed no evidence files.' }]
  blocks.push({
    kind: 'text',
    text: `${list.length} ${list.length === 1 ? 'file was' : 'files were'} before the approver. The files stay with the assessor; each SHA-256 identifies the exact file approved against.`,
  })
  for (const f of list)
    blocks.push(
      { kind: 'spacer' },
      { kind: 'text', text: `${f.requirement} - ${f.name}`, bold: true },
      { kind: 'text', text: `SHA-256 ${f.sha256}` },
      {
        kind: 'text',
        text: `${f.size.toLocaleString('en-US')} bytes${f.attached_at ? `, attached ${f.attached_at.slice(0, 10)}` : ''}; origin: ${originText(f.origin)}`,
      },
    )
  return blocks
}

/**
 * The PDF of an SAQ: header facts (type, organization, template version, status, compliance,
 * attestation, approval note), the executive summary, the per-section summary table, each
 * section's requirements with answer and explanation, then appendices with the compensating-control
 * worksheets, the action plans of Not in Place answers and (approved) the evidence files.
 */
export function saqPdf(row: Row): Buffer {
  const a = row.attributes
  const template = templateOfRow(row)
  const stored = answersOf(row)
  const answers = answerMap(stored)
  const offered = template.responses
  const approved = a.status === 'approved'
  const attestation = (a.attestation as Attestation | null) ?? null
  const compliance = a.compliance
    ? (SAQ_COMPLIANCE_LABELS[a.compliance as SaqCompliance] ?? String(a.compliance))
    : 'Not yet determined'

  const blocks: PdfBlock[] = [
    { kind: 'heading', text: String(a.name) },
    { kind: 'text', text: `Self-assessment questionnaire ${row.id}, SAQ ${String(a.saq_type)}` },
    { kind: 'text', text: `Organization: ${String(a.organization_name ?? 'not recorded')}` },
    { kind: 'text', text: `Template version: ${template.version}` },
    {
      kind: 'text',
      text: approved
        ? `Status: approved on ${String(a.approved_at ?? '').slice(0, 10)}`
        : 'Status: draft',
    },
    { kind: 'text', text: `Compliance: ${compliance}`, bold: true },
  ]
  if (approved && attestation)
    blocks.push({
      kind: 'text',
      text: `Attested by ${attestation.signer_name ?? '?'}, ${attestation.signer_title ?? '?'}, on ${attestation.date ?? '?'}`,
    })
  if (approved && a.approval_note)
    blocks.push(
      { kind: 'text', text: 'Approval note', bold: true },
      { kind: 'text', text: cut(String(a.approval_note), APPENDIX_MAX) },
    )
  if (a.description) blocks.push({ kind: 'text', text: cut(String(a.description), 600) })

  blocks.push(...summaryBlocks(a.executive_summary as Summary | null))

  // Summary table: one row per section, one column per offered choice, then the unanswered.
  const widths = [...offered.map((r) => SHORT_LABEL[r]), 'Open'].map((t) =>
    Math.max(34, Math.ceil(textWidth(t, 9, true)) + 8),
  )
  const used = widths.reduce((n, w) => n + w, 0)
  blocks.push({ kind: 'spacer' }, { kind: 'heading', text: 'Summary of answers' })
  blocks.push({
    kind: 'table',
    columns: [
      { title: 'Requirement', width: 495 - used },
      ...offered.map((r, i) => ({ title: SHORT_LABEL[r], width: widths[i] })),
      { title: 'Open', width: widths[widths.length - 1] },
    ],
    rows: summaryTable(template, answers).map((s) => [
      `${s.section}. ${s.title}`,
      ...offered.map((r) => String(s.counts[r])),
      String(s.unanswered),
    ]),
  })

  for (const section of template.sections) {
    blocks.push(
      { kind: 'spacer' },
      { kind: 'heading', text: `${section.number}. ${section.title}` },
      {
        kind: 'table',
        columns: [
          { title: 'Requirement', width: 62 },
          { title: 'Title', width: 318 },
          { title: 'Answer', width: 115 },
        ],
        rows: section.requirements.map((r) => {
          const answer = answers.get(r.number)
          const label = answer
            ? SAQ_RESPONSE_LABELS[answer.response]
            : r.required
              ? '-'
              : '(optional)'
          return [r.number, r.title, answer?.legal_exception ? `${label} (legal)` : label]
        }),
      },
    )
    for (const r of section.requirements) {
      const answer = answers.get(r.number)
      if (!answer?.explanation) continue
      blocks.push(
        { kind: 'text', text: `${r.number} - ${SAQ_RESPONSE_LABELS[answer.response]}`, bold: true },
        { kind: 'text', text: cut(answer.explanation, EXPLANATION_MAX) },
      )
    }
  }

  const title = new Map(
    template.sections.flatMap((s) => s.requirements.map((r) => [r.number, r.title])),
  )
  const ccw = stored.filter((x) => x.response === 'in_place_ccw')
  const plans = stored.filter((x) => x.response === 'not_in_place')
  blocks.push(
    { kind: 'spacer' },
    { kind: 'heading', text: 'Appendix A: Compensating control worksheets' },
  )
  if (!ccw.length)
    blocks.push({ kind: 'text', text: 'No requirement is met with a compensating control.' })
  for (const x of ccw) {
    blocks.push(
      { kind: 'spacer' },
      { kind: 'text', text: `${x.requirement} ${title.get(x.requirement) ?? ''}`, bold: true },
    )
    for (const [key, label] of SAQ_CCW_FIELDS)
      blocks.push(
        { kind: 'text', text: label, bold: true },
        { kind: 'text', text: x.ccw?.[key] ? cut(x.ccw[key], APPENDIX_MAX) : 'Not given' },
      )
  }
  blocks.push(
    { kind: 'spacer' },
    { kind: 'heading', text: 'Appendix B: Requirements not in place' },
  )
  if (!plans.length)
    blocks.push({ kind: 'text', text: 'Every answered requirement is in place or not applicable.' })
  for (const x of plans) {
    blocks.push(
      { kind: 'spacer' },
      {
        kind: 'text',
        text: `${x.requirement} ${title.get(x.requirement) ?? ''}${x.legal_exception ? ' (legal exception)' : ''}`,
        bold: true,
      },
    )
    if (x.explanation) blocks.push({ kind: 'text', text: cut(x.explanation, APPENDIX_MAX) })
    const plan = x.action_plan
    if (plan?.action || plan?.owner || plan?.due_date) {
      if (plan.action)
        blocks.push({ kind: 'text', text: `Action: ${cut(plan.action, APPENDIX_MAX)}` })
      blocks.push({
        kind: 'text',
        text: `Owner: ${plan.owner ?? 'not named'}; due: ${plan.due_date ?? 'no date set'}`,
      })
    } else if (!x.legal_exception) blocks.push({ kind: 'text', text: 'No action plan recorded.' })
  }
  if (approved) blocks.push(...evidenceBlocks(a.evidence as EvidenceFile[] | null | undefined))
  return buildPdf({ title: String(a.name), createdAt: String(a.created_at ?? ''), blocks })
}
