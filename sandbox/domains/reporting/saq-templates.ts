import {
  SAQ_BASE_RESPONSES,
  SAQ_RESPONSES,
  SAQ_TESTING_METHODS,
  type SaqResponse,
  type SaqTemplateLike,
} from '@contract/saq'
import { REQUIREMENTS_1_TO_6, type Group } from './saq-requirements-1-6'
import { REQUIREMENTS_7_TO_12 } from './saq-requirements-7-12'

/**
 * SAQ types and their templates. Requirement numbers follow the usual numbering of the payment
 * card security standard (1.1.1 … 12.10.7, A1.x for multi-tenant service providers); the titles
 * are short paraphrases written for this sandbox (never the standard's own wording). Which
 * requirement belongs to which type is a plausible simplification, generated deterministically
 * from the table below (no randomness).
 */

/** One SAQ type as seeded. */
export interface SaqTypeSeed {
  code: string
  name: string
  applies_to: string
  description: string
  /** The current template version of the type. */
  template_version: string
  /** Short checklist: the type fits when every line is true. */
  eligibility: string[]
}

/** Template versions: most types are on 4.0.1; P2PE and SPoC still on 4.0. */
export const CURRENT_VERSION = '4.0.1'
/** The version before CURRENT_VERSION (older SAQs were answered against it). */
export const PREVIOUS_VERSION = '4.0'

/** The ten SAQ types, in seed order (sqt-001 = A … sqt-010 = SPoC). */
export const SAQ_TYPES: SaqTypeSeed[] = [
  {
    code: 'A',
    name: 'SAQ A',
    applies_to: 'Card-not-present merchants that fully outsource payment handling',
    description: 'Short questionnaire for merchants whose payment pages come from a provider.',
    template_version: CURRENT_VERSION,
    eligibility: [
      'You accept only card-not-present payments (e-commerce, mail or telephone orders)',
      'All payment pages come from a PCI DSS compliant provider',
      'No card data is stored, processed or transmitted on your systems',
      'Paper with card data, if any, is kept only as long as needed and not electronically',
    ],
  },
  {
    code: 'A-EP',
    name: 'SAQ A-EP',
    applies_to: "E-commerce merchants whose website can affect the payment's security",
    description: 'For web shops that outsource processing but control the page that hands off.',
    template_version: CURRENT_VERSION,
    eligibility: [
      'You accept only e-commerce payments',
      'Your website does not receive card data but controls how the payment page is shown',
      'Processing is done by a PCI DSS compliant provider',
      'No card data is stored electronically on your systems',
    ],
  },
  {
    code: 'B',
    name: 'SAQ B',
    applies_to: 'Merchants using imprint machines or standalone dial-out terminals only',
    description: 'No electronic storage of card data; terminals are not on the internet.',
    template_version: CURRENT_VERSION,
    eligibility: [
      'You take cards only with imprint machines or standalone dial-out terminals',
      'The terminals are not connected to any other system or to the internet',
      'No card data is stored electronically',
    ],
  },
  {
    code: 'B-IP',
    name: 'SAQ B-IP',
    applies_to: 'Merchants using standalone approved terminals connected over IP',
    description: 'Terminals talk to the processor over IP; no other systems hold card data.',
    template_version: CURRENT_VERSION,
    eligibility: [
      'You take cards only with standalone, approved PIN terminals',
      'The terminals connect over IP only to your payment processor',
      'The terminals are not connected to other systems in your environment',
      'No card data is stored electronically',
    ],
  },
  {
    code: 'C',
    name: 'SAQ C',
    applies_to: 'Merchants whose payment application systems are connected to the internet',
    description: 'Payment application on a networked system, no electronic card data storage.',
    template_version: CURRENT_VERSION,
    eligibility: [
      'Your payment application and the internet connection are on the same device or network',
      'The payment system is not connected to other systems in your environment',
      'Your store is not connected to other locations',
      'No card data is stored electronically',
    ],
  },
  {
    code: 'C-VT',
    name: 'SAQ C-VT',
    applies_to: 'Merchants keying transactions one at a time into a virtual terminal',
    description: 'Manual entry through a provider-hosted web terminal on an isolated device.',
    template_version: CURRENT_VERSION,
    eligibility: [
      'You enter one transaction at a time by keyboard into a provider-hosted virtual terminal',
      'The computer used is isolated and not connected to other systems',
      'No card readers are attached to that computer',
      'No card data is stored electronically',
    ],
  },
  {
    code: 'D-Merchant',
    name: 'SAQ D for Merchants',
    applies_to: 'Merchants not covered by any other questionnaire type',
    description: 'The full set of requirements that apply to a merchant.',
    template_version: CURRENT_VERSION,
    eligibility: [
      'You are a merchant eligible to assess yourself',
      'None of the shorter questionnaire types describes how you take cards',
      'You may store, process or transmit card data on your own systems',
    ],
  },
  {
    code: 'D-Service Provider',
    name: 'SAQ D for Service Providers',
    applies_to: 'Service providers eligible to assess themselves',
    description: 'The full set of requirements, including those only for service providers.',
    template_version: CURRENT_VERSION,
    eligibility: [
      'You are a service provider that a card brand allows to assess itself',
      'You store, process or transmit card data for others, or can affect its security',
      'Multi-tenant hosting providers also answer the A1 requirements',
    ],
  },
  {
    code: 'P2PE',
    name: 'SAQ P2PE',
    applies_to: 'Merchants using only hardware terminals of a listed encryption solution',
    description: 'Card data is encrypted at the terminal by a validated solution.',
    template_version: PREVIOUS_VERSION,
    eligibility: [
      'All card payments go through terminals of a listed point-to-point encryption solution',
      'You follow the instruction manual of that solution',
      'No card data is stored electronically',
      'You never take card numbers outside the solution (for example by phone into a PC)',
    ],
  },
  {
    code: 'SPoC',
    name: 'SAQ SPoC',
    applies_to: 'Merchants accepting cards on a phone or tablet with a secure PIN-entry solution',
    description: 'Commercial off-the-shelf device with a listed card reader and PIN solution.',
    template_version: PREVIOUS_VERSION,
    eligibility: [
      'You accept cards only with a listed software PIN-entry solution on a phone or tablet',
      'The card reader used is the one that solution lists',
      'You do not key card numbers into the phone or tablet by hand',
      'No card data is stored electronically',
    ],
  },
]

/** Paraphrased section titles, keyed by the section number. */
export const SECTION_TITLES: Record<string, string> = {
  '1': 'Network security controls',
  '2': 'Secure configuration of systems',
  '3': 'Protection of stored account data',
  '4': 'Encryption of card data in transit',
  '5': 'Protection against malicious software',
  '6': 'Secure systems and software',
  '7': 'Access limited by business need',
  '8': 'User identification and authentication',
  '9': 'Physical access to card data',
  '10': 'Logging and monitoring',
  '11': 'Regular security testing',
  '12': 'Security policies and programs',
  A1: 'Extra duties of multi-tenant providers',
}

/** The master table (how a group reads: saq-requirements-1-6.ts). */
const GROUPS: Group[] = [...REQUIREMENTS_1_TO_6, ...REQUIREMENTS_7_TO_12]

/**
 * Requirements of the previous template version that the current one no longer has, by type
 * (e.g. the 2025 revision of SAQ A dropped the payment-page script checks).
 */
const PREVIOUS_ONLY: Record<string, string[]> = { A: ['6.4.3', '11.6.1'] }

/** One requirement of a template. */
export interface TemplateRequirement {
  number: string
  title: string
  required: boolean
  testing_methods: string[]
  guidance: string | null
}

/** One section of a template. */
export interface TemplateSection {
  number: string
  title: string
  requirements: TemplateRequirement[]
}

/** A template: its version, offered answer choices and sections. */
export interface SaqTemplate extends SaqTemplateLike {
  code: string
  version: string
  responses: SaqResponse[]
  sections: TemplateSection[]
}

interface MasterRow {
  number: string
  title: string
  spOnly: boolean
  optional: boolean
  section: string
  /** Type codes (other than the D types) that take this requirement. */
  types: Set<string>
}

function hash(text: string): number {
  let h = 2166136261
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0
  return h
}

/** Deterministic testing methods: documents are examined, settings observed or tested. */
function testingMethods(number: string, title: string): string[] {
  const t = title.toLowerCase()
  if (/policies|roles and responsibilities/.test(t)) return ['examine', 'interview']
  const h = hash(number)
  const picked = new Set<string>(['examine'])
  if (h % 2 === 0 || /staff|trained|responsib|aware/.test(t)) picked.add('interview')
  if ((h >> 1) % 3 === 0 || /physical|terminal|visitor|badge|media|camera/.test(t))
    picked.add('observe')
  if ((h >> 3) % 2 === 0 || /scan|test|detect|lock|time out|multi-factor|configured/.test(t))
    picked.add('test')
  return SAQ_TESTING_METHODS.filter((m) => picked.has(m))
}

function guidanceOf(row: MasterRow): string | null {
  if (row.optional)
    return 'A best practice until its future date; answer it if it already applies to you.'
  if (row.spOnly) return 'Only for service providers.'
  if (/^\d+\.1\.1$/.test(row.number))
    return 'Show where the documents are kept and how staff find the current version.'
  if (/targeted risk analysis/i.test(row.title))
    return 'Keep the analysis with the frequency it sets and review it yearly.'
  return null
}

function parseSelection(selection: string, count: number): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>()
  for (const token of selection.split(/\s+/).filter(Boolean)) {
    const m = /^([A-Za-z][A-Za-z0-9-]*?)(?::(\d+)|=([\d,]+))?$/.exec(token)
    if (!m) throw new Error(`bad SAQ selection ${token}`)
    const all = Array.from({ length: count }, (_, i) => i)
    const picked = m[2]
      ? all.slice(0, Number(m[2]))
      : m[3]
        ? m[3].split(',').map((n) => Number(n) - 1)
        : all
    out.set(m[1], new Set(picked))
  }
  return out
}

const MASTER: MasterRow[] = GROUPS.flatMap(([group, topics, selection]) => {
  const sel = parseSelection(selection, topics.length)
  let counter = 0
  return topics.map((topic, i) => {
    let text = topic
    const spOnly = text.startsWith('!') || sel.has('SP')
    text = text.replace(/^!/, '')
    const optional = text.startsWith('?')
    text = text.replace(/^\?/, '')
    let number: string
    const own = /^(\d+(?:\.\d+)*) (.*)$/.exec(text)
    if (own) {
      number = `${group}.${own[1]}`
      text = own[2]
    } else {
      counter++
      number = `${group}.${counter}`
    }
    const types = new Set([...sel].filter(([, idx]) => idx.has(i)).map(([code]) => code))
    return { number, title: text, spOnly, optional, section: group.split('.')[0], types }
  })
})

function inTemplate(row: MasterRow, code: string, version: string): boolean {
  if (code === 'D-Service Provider') return true
  if (row.spOnly) return false
  if (code === 'D-Merchant') return true
  if (row.types.has(code)) return !PREVIOUS_ONLY[code]?.includes(row.number)
  return version === PREVIOUS_VERSION && !!PREVIOUS_ONLY[code]?.includes(row.number)
}

/** The seed of a type by code (case-insensitive), or undefined. */
export function saqTypeSeed(code: string): SaqTypeSeed | undefined {
  return SAQ_TYPES.find((t) => t.code.toLowerCase() === code.toLowerCase())
}

/** The template versions a type's SAQs may have been answered against (current first). */
export function knownVersions(code: string): string[] {
  const current = saqTypeSeed(code)?.template_version ?? CURRENT_VERSION
  return current === PREVIOUS_VERSION ? [current] : [current, PREVIOUS_VERSION]
}

/** The answer choices a type's template offers in a version. */
export function responsesFor(code: string, version?: string): SaqResponse[] {
  const v = version ?? saqTypeSeed(code)?.template_version ?? CURRENT_VERSION
  const out = new Set<SaqResponse>(SAQ_BASE_RESPONSES)
  if (v !== PREVIOUS_VERSION) out.add('in_place_remediation')
  if (code === 'D-Service Provider') out.add('not_tested')
  return SAQ_RESPONSES.filter((r) => out.has(r))
}

/** The whole template of a type in a version (its current one by default). */
export function saqTemplate(code: string, version?: string): SaqTemplate {
  const v = version ?? saqTypeSeed(code)?.template_version ?? CURRENT_VERSION
  const sections = new Map<string, TemplateSection>()
  for (const row of MASTER) {
    if (!inTemplate(row, code, v)) continue
    let section = sections.get(row.section)
    if (!section) {
      section = { number: row.section, title: SECTION_TITLES[row.section], requirements: [] }
      sections.set(row.section, section)
    }
    section.requirements.push({
      number: row.number,
      title: row.title,
      required: !row.optional,
      testing_methods: testingMethods(row.number, row.title),
      guidance: guidanceOf(row),
    })
  }
  return { code, version: v, responses: responsesFor(code, v), sections: [...sections.values()] }
}

/** The sections and requirements of the SAQ type `code`, in number order. */
export function templateFor(code: string, version?: string): TemplateSection[] {
  return saqTemplate(code, version).sections
}

/** Every requirement of a type, flattened. */
export function requirementsFor(code: string, version?: string): TemplateRequirement[] {
  return templateFor(code, version).flatMap((s) => s.requirements)
}
