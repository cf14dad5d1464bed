import type { SandboxContext } from '../../types'
import { complianceOf, type SaqAnswer, type SaqExecutiveSummary } from '@contract/saq'
import { findSaqType, insertSaq, mergeAnswers, progressOf } from './handlers/saq'
import { saqTemplate, SAQ_TYPES, type SaqTemplate } from './saq-templates'
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
  for (const t of SAQ_TYPES) {
    const template = saqTemplate(t.code)
    ctx.db.insert('saq_types', {
      id: ctx.db.nextId('sqt'),
      type: 'saq_type',
      attributes: {
        code: t.code,
        name: t.name,
        description: t.description,
        applies_to: t.applies_to,
        requirements_count: template.sections.reduce((n, s) => n + s.requirements.length, 0),
        optional_requirements_count: template.sections.reduce(
          (n, s) => n + s.requirements.filter((r) => !r.required).length,
          0,
        ),
        template_version: template.version,
        eligibility: t.eligibility,
      },
    })
  }
}

type Override = Omit<SaqAnswer, 'requirement'>

// Not Applicable explanations, by what a requirement is about (first match wins).
const NOT_APPLICABLE: [string, RegExp, string][] = [
  [
    'wireless',
    /wireless/i,
    'No wireless networks are connected to or used in the card data environment.',
  ],
  [
    'software',
    /bespoke|developers|code review|manual code|engineering techniques/i,
    'We develop no software of our own; only vendor-supplied applications are in use.',
  ],
  [
    'media',
    /paper|media|backup/i,
    'Card data is never written on paper or copied to removable or backup media.',
  ],
  ['visitors', /visitor/i, 'No visitors are admitted to the areas where payments are handled.'],
  ['issuers', /issuers/i, 'We are not a card issuer and keep no sensitive authentication data.'],
]

/** Topics every seed treats as not applicable (unless a seed lists its own). */
const ALL_TOPICS = NOT_APPLICABLE.map(([key]) => key)

function notApplicableReason(number: string, title: string, topics: string[]): string | undefined {
  if (number.startsWith('A1.'))
    return 'The multi-tenant offering started after the assessment period; no customer environments were hosted during it.'
  return NOT_APPLICABLE.find(([key, re]) => topics.includes(key) && re.test(title))?.[2]
}

/**
 * Answers for the first `share` of a template's requirements (1 = all): In Place, Not
 * Applicable with an explanation where the topic does not apply, and the given overrides.
 */
function seedAnswers(
  template: SaqTemplate,
  share: number,
  overrides: Record<string, Override> = {},
  topics: string[] = ALL_TOPICS,
): SaqAnswer[] {
  const all = template.sections.flatMap((s) => s.requirements)
  const take = all.slice(0, Math.ceil(all.length * share))
  const numbers = new Set(take.map((r) => r.number))
  const out: SaqAnswer[] = take.map((r) => {
    const o = overrides[r.number]
    if (o) return { requirement: r.number, ...o }
    const reason = notApplicableReason(r.number, r.title, topics)
    if (reason) return { requirement: r.number, response: 'not_applicable', explanation: reason }
    return { requirement: r.number, response: 'in_place' }
  })
  for (const [number, o] of Object.entries(overrides))
    if (!numbers.has(number) && all.some((r) => r.number === number))
      out.push({ requirement: number, ...o })
  return out
}

const ACME_SUMMARY: SaqExecutiveSummary = {
  payment_channels: ['ecommerce'],
  environment:
    'The web shop runs on a managed hosting platform. Checkout redirects the customer to the payment page of our processor; no card data reaches our servers.',
  service_providers: [
    { name: 'Stripe Payments Europe', services: 'Hosted payment page and processing' },
    { name: 'Northwind Hosting', services: 'Managed hosting of the web shop' },
  ],
}

const PLATFORM_SUMMARY: SaqExecutiveSummary = {
  payment_channels: ['ecommerce', 'moto'],
  environment:
    'Acme processes card payments for about 400 merchants in two data centres. The card data environment is segmented from the corporate network by firewalls and a jump host with multi-factor access.',
  service_providers: [
    { name: 'Contoso Colocation', services: 'Data centre space and physical security' },
    { name: 'Fabrikam HSM Services', services: 'Hardware security modules (managed)' },
  ],
}

const STORE_SUMMARY: SaqExecutiveSummary = {
  payment_channels: ['card_present'],
  environment:
    'Twelve stores use standalone PIN terminals connected over the store broadband line directly to the acquirer. The terminals are on their own network segment.',
  service_providers: [
    { name: 'Contoso Merchant Services', services: 'Acquirer and terminal supplier' },
  ],
}

const CCW_3_5_1: Override = {
  response: 'in_place_ccw',
  ccw: {
    constraints:
      'The legacy settlement database cannot encrypt the card number column without a vendor upgrade due next year.',
    objective:
      'Stored card numbers must be unreadable to anyone who obtains the data without authorisation.',
    identified_risk:
      'Database administrators or an attacker with database access could read full card numbers.',
    definition:
      'The database sits in its own network zone reachable only from the settlement service; storage is encrypted at volume level with keys in the HSM; every query is logged and reviewed daily; only two named administrators have access, both with multi-factor authentication.',
    validation:
      'The internal audit team tested the zone rules, reviewed the query logs for a month and confirmed the volume encryption and access list in March.',
    maintenance:
      'Access is reviewed monthly, the log review is part of the daily SOC checklist, and the control is re-tested after every change to the settlement service.',
  },
}

interface SaqSeed {
  org: 'org-001' | 'org-002'
  code: string
  name: string
  version?: string
  share: number
  overrides?: Record<string, Override>
  summary?: SaqExecutiveSummary
  days: number
  approved?: { signer: string; title: string }
  template?: boolean
  /** Not-applicable topics (see NOT_APPLICABLE); all by default. */
  na?: string[]
}

/**
 * The seeded SAQs (ids follow this order; the catalog examples rely on saq-001, saq-002,
 * saq-003 and saq-006):
 * - saq-001 A, approved last year on template 4.0, compliant (clone example: its answers to
 *   6.4.3 and 11.6.1, which 4.0.1 no longer has, are dropped);
 * - saq-002 A, draft on 4.0.1 with every requirement answered (approve example);
 * - saq-003 C-VT, partly answered draft (set-template example);
 * - saq-004 B-IP, approved last year, compliant with a legal exception (3.2.1);
 * - saq-005 D for Service Providers, approved last year, non-compliant: 10.7.1 and 11.4.6 not in
 *   place with action plans, 3.5.1 in place with a full compensating-control worksheet, 11.4.7
 *   not tested, A1 not applicable;
 * - saq-006 P2PE, empty draft (delete example);
 * - saq-007 A-EP, partly answered, set as a template;
 * - saq-008 P2PE, partly answered draft of org-002.
 */
export const SAQ_SEEDS: SaqSeed[] = [
  {
    org: 'org-001',
    code: 'A',
    name: 'Web shop SAQ A 2025',
    version: '4.0',
    share: 1,
    summary: ACME_SUMMARY,
    days: 360,
    approved: { signer: 'Dana Reyes', title: 'Chief Information Security Officer' },
  },
  {
    org: 'org-001',
    code: 'A',
    name: 'Web shop SAQ A 2026',
    share: 1,
    overrides: {
      '8.3.6': {
        response: 'in_place_remediation',
        explanation: 'Password length raised to 12 characters after a gap was found in January.',
      },
    },
    summary: ACME_SUMMARY,
    days: 10,
  },
  {
    org: 'org-001',
    code: 'C-VT',
    name: 'Call centre virtual terminal 2026',
    share: 0.5,
    summary: {
      payment_channels: ['moto'],
      environment:
        'Four isolated PCs in the call centre open the virtual terminal of the acquirer.',
    },
    days: 8,
  },
  {
    org: 'org-001',
    code: 'B-IP',
    name: 'Store terminals B-IP 2025',
    share: 1,
    overrides: {
      '3.2.1': {
        response: 'not_in_place',
        legal_exception: true,
        explanation:
          'Local tax law requires merchant copies of receipts, which show the card number, to be kept for ten years. They are kept in a locked safe and destroyed afterwards.',
      },
    },
    summary: STORE_SUMMARY,
    days: 350,
    approved: { signer: 'Dana Reyes', title: 'Chief Information Security Officer' },
  },
  {
    org: 'org-001',
    code: 'D-Service Provider',
    name: 'Acme platform SAQ D 2025',
    share: 1,
    overrides: {
      '3.5.1': CCW_3_5_1,
      '10.7.1': {
        response: 'not_in_place',
        explanation: 'Alerts for failed log forwarding exist, but not for the HSM and the IDS.',
        action_plan: {
          action:
            'Extend the monitoring of control failures to the HSM cluster and the intrusion detection sensors.',
          owner: 'Priya Shah, SOC lead',
          due_date: '2026-03-31',
        },
      },
      '11.4.6': {
        response: 'not_in_place',
        action_plan: {
          action: 'Add a six-monthly segmentation test to the penetration testing contract.',
          owner: 'Marc Olsen, Security engineering',
          due_date: '2026-02-28',
        },
      },
      '11.4.7': {
        response: 'not_tested',
        explanation:
          'Not assessed this year: the multi-tenant offering was launched after the assessment period.',
      },
    },
    summary: PLATFORM_SUMMARY,
    na: ['wireless', 'issuers'],
    days: 340,
    approved: { signer: 'Dana Reyes', title: 'Chief Information Security Officer' },
  },
  { org: 'org-001', code: 'P2PE', name: 'Old P2PE draft', share: 0, days: 90 },
  {
    org: 'org-001',
    code: 'A-EP',
    name: 'Checkout pages A-EP baseline',
    share: 0.4,
    summary: ACME_SUMMARY,
    days: 40,
    template: true,
  },
  {
    org: 'org-002',
    code: 'P2PE',
    name: 'Globex stores P2PE 2026',
    share: 0.4,
    summary: STORE_SUMMARY,
    days: 5,
  },
]

const ORG_NAMES: Record<string, string> = {
  'org-001': 'Acme Payments',
  'org-002': 'Globex Retail',
}

/** Seeds the SAQs of SAQ_SEEDS (saq-001 … saq-008); every answer passes the shared rules. */
export function seedSaqs(ctx: SandboxContext): void {
  for (const s of SAQ_SEEDS) {
    const type = findSaqType(ctx, s.code)!
    const template = saqTemplate(s.code, s.version)
    const list = mergeAnswers(
      ctx,
      template,
      [],
      seedAnswers(template, s.share, s.overrides, s.na),
    ).map((a) => ({ ...a, answered_at: ago(ctx, s.days - 1) }))
    const row = insertSaq(
      ctx,
      { organizationId: s.org, userId: s.org === 'org-001' ? 'usr-002' : 'usr-006' },
      type,
      { name: s.name, answers: list, executive_summary: s.summary, template_version: s.version },
    )
    const approvedAt = ago(ctx, s.days - 2)
    ctx.db.update('saqs', row.id, {
      created_at: ago(ctx, s.days),
      updated_at: ago(ctx, s.days - 1),
      organization_name: row.attributes.organization_name ?? ORG_NAMES[s.org],
      progress: progressOf(template, list),
      is_template: s.template === true,
      ...(s.approved
        ? {
            status: 'approved',
            compliance: complianceOf(list),
            attestation: {
              signer_name: s.approved.signer,
              signer_title: s.approved.title,
              date: approvedAt.slice(0, 10),
            },
            approved_at: approvedAt,
            approved_by: 'usr-001',
          }
        : {}),
    })
  }
}
