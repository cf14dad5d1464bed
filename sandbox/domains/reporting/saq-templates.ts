/**
 * SAQ types and their templates. Requirement numbers follow the usual numbering of the payment
 * card security standard; the titles are short paraphrases written for this sandbox (never the
 * standard's own wording). Which requirement belongs to which type is a plausible simplification.
 */

/** One SAQ type as seeded. */
export interface SaqTypeSeed {
  code: string
  name: string
  applies_to: string
  description: string
}

/** The ten SAQ types, in seed order (sqt-001 = A … sqt-010 = SPoC). */
export const SAQ_TYPES: SaqTypeSeed[] = [
  {
    code: 'A',
    name: 'SAQ A',
    applies_to: 'Card-not-present merchants that fully outsource payment handling',
    description: 'Short questionnaire for merchants whose payment pages come from a provider.',
  },
  {
    code: 'A-EP',
    name: 'SAQ A-EP',
    applies_to: "E-commerce merchants whose website can affect the payment's security",
    description: 'For web shops that outsource processing but control the page that hands off.',
  },
  {
    code: 'B',
    name: 'SAQ B',
    applies_to: 'Merchants using imprint machines or standalone dial-out terminals only',
    description: 'No electronic storage of card data; terminals are not on the internet.',
  },
  {
    code: 'B-IP',
    name: 'SAQ B-IP',
    applies_to: 'Merchants using standalone approved terminals connected over IP',
    description: 'Terminals talk to the processor over IP; no other systems hold card data.',
  },
  {
    code: 'C',
    name: 'SAQ C',
    applies_to: 'Merchants whose payment application systems are connected to the internet',
    description: 'Payment application on a networked system, no electronic card data storage.',
  },
  {
    code: 'C-VT',
    name: 'SAQ C-VT',
    applies_to: 'Merchants keying transactions one at a time into a virtual terminal',
    description: 'Manual entry through a provider-hosted web terminal on an isolated device.',
  },
  {
    code: 'D-Merchant',
    name: 'SAQ D for Merchants',
    applies_to: 'Merchants not covered by any other questionnaire type',
    description: 'The full set of requirements that apply to a merchant.',
  },
  {
    code: 'D-Service Provider',
    name: 'SAQ D for Service Providers',
    applies_to: 'Service providers eligible to assess themselves',
    description: 'The full set of requirements, including those only for service providers.',
  },
  {
    code: 'P2PE',
    name: 'SAQ P2PE',
    applies_to: 'Merchants using only hardware terminals of a listed encryption solution',
    description: 'Card data is encrypted at the terminal by a validated solution.',
  },
  {
    code: 'SPoC',
    name: 'SAQ SPoC',
    applies_to: 'Merchants accepting cards on a phone or tablet with a secure PIN-entry solution',
    description: 'Commercial off-the-shelf device with a listed card reader and PIN solution.',
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

// Tags: a type code, 'D' (both D types), 'SP' (service providers only), 'ALL'; '?' = optional.
const R: [string, string, string][] = [
  ['1.1.1', 'Network security policies are documented and in use', 'D C B-IP'],
  ['1.2.1', 'Network control settings follow a defined standard', 'D C B-IP A-EP'],
  ['1.2.5', 'Only approved ports, protocols and services are open', 'D C B-IP A-EP'],
  ['1.3.1', 'Inbound traffic to the card data environment is limited', 'D C B-IP C-VT A-EP'],
  ['1.4.1', 'Controls sit between trusted and untrusted networks', 'D C B-IP C-VT A-EP'],
  ['1.5.1', 'Devices that join both zones are protected', 'D C C-VT'],
  ['2.1.1', 'Configuration policies are documented and in use', 'D C A-EP'],
  ['2.2.1', 'Hardening standards exist for every system type', 'D C A-EP B-IP C-VT'],
  ['2.2.2', 'Vendor default accounts are removed or changed', 'A A-EP B-IP C C-VT D'],
  ['2.2.7', 'Administrative access is encrypted', 'D C A-EP B-IP'],
  ['2.3.1', 'Wireless defaults are changed before use', 'D C'],
  ['3.1.1', 'Rules for keeping data are written down', 'D C B C-VT'],
  ['3.2.1', 'Stored account data is kept to a minimum', 'D C B B-IP C-VT P2PE'],
  [
    '3.3.1',
    'Sensitive authentication data is not kept after approval',
    'D C B B-IP C-VT P2PE SPoC',
  ],
  ['3.4.1', 'Card numbers are masked when displayed', 'D C B B-IP C-VT'],
  ['3.5.1', 'Stored card numbers cannot be read', 'D'],
  ['3.6.1', 'Cryptographic keys are protected', 'D'],
  ['4.2.1', 'Strong cryptography protects card data on open networks', 'D C C-VT A-EP B-IP'],
  ['4.2.2', 'Card numbers sent by messaging tools are secured', 'D C B C-VT'],
  ['5.2.1', 'Anti-malware runs on systems at risk', 'D C C-VT A-EP'],
  ['5.3.1', 'Anti-malware is kept up to date', 'D C C-VT A-EP'],
  ['5.4.1', 'Staff are protected against phishing', 'D C A-EP ?'],
  ['6.2.1', 'In-house software is built securely', 'D A-EP'],
  ['6.3.1', 'Security weaknesses are found and ranked', 'D C A-EP B-IP C-VT'],
  ['6.3.3', 'Security patches are applied in time', 'A A-EP B-IP C C-VT D'],
  ['6.4.1', 'Public web applications are shielded from attacks', 'D A-EP'],
  ['6.4.3', 'Scripts on payment pages are approved and checked', 'A A-EP D'],
  ['6.5.1', 'Production changes follow change control', 'D A-EP C'],
  ['7.2.1', 'Access is defined by job function', 'D C C-VT A-EP'],
  ['7.2.2', 'Access follows least privilege', 'D C C-VT A-EP B B-IP'],
  ['7.2.4', 'Accounts and privileges are reviewed regularly', 'D A-EP'],
  ['8.2.1', 'Every user has a unique ID', 'D C C-VT A-EP'],
  ['8.2.2', 'Shared accounts are used only by exception', 'A A-EP C D'],
  ['8.2.5', 'Access of people who leave is revoked at once', 'A A-EP C C-VT D'],
  ['8.3.1', 'Strong authentication for user access', 'A A-EP C C-VT D'],
  ['8.3.6', 'Passwords meet length and complexity rules', 'A A-EP C D'],
  ['8.4.1', 'Multi-factor for administrative access to card data systems', 'D C A-EP'],
  ['8.4.3', 'Multi-factor for remote network access', 'D C C-VT A-EP B-IP'],
  ['8.6.1', 'System and application accounts are managed', 'D'],
  ['9.1.1', 'Physical security policies are in use', 'D'],
  ['9.2.1', 'Entry controls limit physical access', 'D C'],
  ['9.4.1', 'Media holding card data is physically secured', 'A A-EP B B-IP C C-VT D P2PE'],
  [
    '9.4.6',
    'Paper with card data is destroyed when no longer needed',
    'A A-EP B B-IP C C-VT D P2PE',
  ],
  ['9.5.1', 'Payment terminals are protected from tampering', 'B B-IP C D P2PE SPoC'],
  ['9.5.1.3', 'Staff are trained to spot tampered terminals', 'B B-IP C D P2PE SPoC'],
  ['10.2.1', 'Audit logs record user activity', 'D C A-EP'],
  ['10.3.1', 'Audit logs are protected from change', 'D A-EP'],
  ['10.4.1', 'Logs are reviewed at least daily', 'D C A-EP'],
  ['10.6.1', 'System clocks are synchronised', 'D'],
  ['10.7.2', 'Failures of security controls are detected quickly', 'SP'],
  ['11.2.1', 'Unauthorised wireless access points are detected', 'D C'],
  ['11.3.1', 'Internal vulnerability scans run every quarter', 'D C A-EP'],
  ['11.3.2', 'Approved vendor runs external scans every quarter', 'A A-EP B-IP C C-VT D'],
  ['11.4.1', 'A penetration testing method is defined and used', 'D A-EP'],
  ['11.5.1', 'Intrusion detection watches network traffic', 'D A-EP'],
  ['11.6.1', 'Changes to payment pages are detected', 'A A-EP D'],
  ['12.1.1', 'An information security policy is published', 'ALL'],
  ['12.3.1', 'Targeted risk analyses are documented', 'D ?'],
  ['12.5.2', 'Scope is confirmed at least once a year', 'D'],
  ['12.6.1', 'A security awareness program is in place', 'D C C-VT A-EP B B-IP'],
  ['12.8.1', 'Third-party service providers are listed', 'ALL'],
  ['12.8.2', 'Written agreements with providers cover security duties', 'ALL'],
  ['12.8.5', 'Duties shared with each provider are recorded', 'ALL'],
  ['12.9.1', 'The provider confirms its security duties to customers', 'SP'],
  ['12.10.1', 'An incident response plan is ready to use', 'ALL'],
  ['A1.1.1', "Customers' environments are kept apart", 'SP'],
  ['A1.2.1', "Each customer's logs are available to it", 'SP'],
]

/** One requirement of a template. */
export interface TemplateRequirement {
  number: string
  title: string
  required: boolean
  guidance: string | null
}

/** One section of a template. */
export interface TemplateSection {
  number: string
  title: string
  requirements: TemplateRequirement[]
}

function applies(tags: string[], code: string): boolean {
  if (tags.includes('ALL')) return true
  if (tags.includes(code)) return true
  if (code === 'D-Service Provider') return tags.includes('D') || tags.includes('SP')
  if (code === 'D-Merchant') return tags.includes('D')
  return false
}

/** The sections and requirements of the SAQ type `code`, in number order. */
export function templateFor(code: string): TemplateSection[] {
  const sections = new Map<string, TemplateSection>()
  for (const [number, title, tagText] of R) {
    const tags = tagText.split(' ')
    if (!applies(tags, code)) continue
    const key = number.split('.')[0]
    let section = sections.get(key)
    if (!section) {
      section = { number: key, title: SECTION_TITLES[key], requirements: [] }
      sections.set(key, section)
    }
    section.requirements.push({
      number,
      title,
      required: !tags.includes('?'),
      guidance: tags.includes('?') ? 'Recommended; answer if it applies to you.' : null,
    })
  }
  return [...sections.values()]
}

/** Every requirement of a type, flattened. */
export function requirementsFor(code: string): TemplateRequirement[] {
  return templateFor(code).flatMap((s) => s.requirements)
}
