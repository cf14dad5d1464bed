import type { SandboxContext } from '../../types'
import { findSaqType, insertSaq, mergeAnswers, progressOf, type StoredAnswer } from './handlers/saq'
import { requirementsFor, SAQ_TYPES } from './saq-templates'
import { ago } from './seed-reports'

// A 1×1 transparent PNG.
const LOGO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

/** Seeds the white label settings of org-001 (wlb-001). */
export function seedWhiteLabel(ctx: SandboxContext): void {
  const at = ago(ctx, 12)
  ctx.db.insert('white_label', {
    id: ctx.db.nextId('wlb'),
    type: 'white_label',
    attributes: {
      company_name: 'Acme Payments',
      primary_color: '#0b5cad',
      logo: LOGO,
      support_email: 'security@acme-payments.example',
      custom_domain: 'scans.acme-payments.example',
      updated_at: at,
    },
    internal: { organization_id: 'org-001' },
  })
}

/** Seeds the ten SAQ types sqt-001 (A) … sqt-010 (SPoC). */
export function seedSaqTypes(ctx: SandboxContext): void {
  for (const t of SAQ_TYPES)
    ctx.db.insert('saq_types', {
      id: ctx.db.nextId('sqt'),
      type: 'saq_type',
      attributes: {
        code: t.code,
        name: t.name,
        description: t.description,
        applies_to: t.applies_to,
        requirements_count: requirementsFor(t.code).length,
        template_version: '2025.1',
      },
    })
}

/** Answers for the first `share` of a type's requirements (1 = all); some N/A with a note. */
function answers(
  code: string,
  share: number,
  no: string[] = [],
): { requirement: string; response: string; note?: string }[] {
  const list = requirementsFor(code)
  return list.slice(0, Math.ceil(list.length * share)).map((r, i) => {
    if (no.includes(r.number))
      return { requirement: r.number, response: 'no', note: 'Remediation planned this quarter.' }
    if (i % 9 === 4)
      return {
        requirement: r.number,
        response: 'not_applicable',
        note: 'No such systems in scope.',
      }
    if (i % 13 === 7)
      return {
        requirement: r.number,
        response: 'compensating_control',
        note: 'Provider-side control documented in appendix.',
      }
    return { requirement: r.number, response: 'yes' }
  })
}

/**
 * Seeds SAQs: saq-001 A approved (clone example), saq-002 A complete draft (approve example),
 * saq-003 C-VT partial draft (set-template example), saq-004 B-IP partial draft, saq-005 D for
 * service providers approved non-compliant, saq-006 empty P2PE draft (delete example), saq-007
 * P2PE draft of org-002.
 */
export function seedSaqs(ctx: SandboxContext): void {
  const specs = [
    {
      org: 'org-001',
      code: 'A',
      name: 'Web shop SAQ A 2024',
      share: 1,
      approved: true,
      no: [] as string[],
      days: 300,
    },
    {
      org: 'org-001',
      code: 'A',
      name: 'Web shop SAQ A 2025',
      share: 1,
      approved: false,
      no: [],
      days: 10,
    },
    {
      org: 'org-001',
      code: 'C-VT',
      name: 'Call centre virtual terminal 2025',
      share: 0.5,
      approved: false,
      no: [],
      days: 8,
    },
    {
      org: 'org-001',
      code: 'B-IP',
      name: 'Store terminals B-IP 2025',
      share: 0.7,
      approved: false,
      no: [],
      days: 6,
    },
    {
      org: 'org-001',
      code: 'D-Service Provider',
      name: 'Acme platform SAQ D 2024',
      share: 1,
      approved: true,
      no: ['10.7.2'],
      days: 200,
    },
    {
      org: 'org-001',
      code: 'P2PE',
      name: 'Old P2PE draft',
      share: 0,
      approved: false,
      no: [],
      days: 90,
    },
    {
      org: 'org-002',
      code: 'P2PE',
      name: 'Globex stores P2PE 2025',
      share: 0.4,
      approved: false,
      no: [],
      days: 5,
    },
  ]
  for (const s of specs) {
    const type = findSaqType(ctx, s.code)!
    const list: StoredAnswer[] = mergeAnswers(ctx, s.code, [], answers(s.code, s.share, s.no)).map(
      (a) => ({ ...a, answered_at: ago(ctx, s.days - 1) }),
    )
    const row = insertSaq(
      ctx,
      { organizationId: s.org, userId: s.org === 'org-001' ? 'usr-002' : 'usr-006' },
      type,
      { name: s.name, answers: list },
    )
    const created = ago(ctx, s.days)
    ctx.db.update('saqs', row.id, {
      created_at: created,
      updated_at: ago(ctx, s.days - 1),
      progress: progressOf(s.code, list),
      ...(s.approved
        ? {
            status: 'approved',
            compliance: s.no.length ? 'non_compliant' : 'compliant',
            approved_at: ago(ctx, s.days - 2),
            approved_by: 'usr-001',
          }
        : {}),
    })
  }
}
