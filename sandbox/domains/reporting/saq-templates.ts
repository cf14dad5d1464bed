import {
  SAQ_BASE_RESPONSES,
  SAQ_RESPONSES,
  SAQ_TESTING_METHODS,
  type SaqResponse,
  type SaqTemplateLike,
} from '@contract/saq'

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

/*
 * The master table: groups of requirements (x.y), each a list of topics numbered in order
 * (x.y.1, x.y.2 …); a topic of the form '<n> text' gives its own number suffix instead
 * (e.g. '1.1 Full track data is never kept' under 3.3 → 3.3.1.1). Topic prefixes: '!' = only
 * for service providers, '?' = optional (a best practice until its future date).
 * The selection says which shorter types take which topics: 'C' = all, 'C:2' = the first two,
 * 'C=1,3' = the first and third. Both D types take every topic (D for Merchants none with '!').
 */
type Group = [group: string, topics: string[], selection: string]

const POLICY = (what: string): string[] => [
  `Policies and procedures for ${what} are documented and kept current`,
  `Roles and responsibilities for ${what} are assigned and understood`,
]

const GROUPS: Group[] = [
  ['1.1', POLICY('network security controls'), 'C A-EP B-IP:1 C-VT:1'],
  [
    '1.2',
    [
      'Configuration standards for network controls are defined',
      'Changes to network connections follow change control',
      'A current network diagram is kept',
      'A current diagram of card data flows is kept',
      'Allowed ports, protocols and services are identified and approved',
      'Insecure services that are allowed have extra protection',
      'Network control settings are reviewed every six months',
      'Configuration files of network controls are secured',
    ],
    'C=1,2,5,7 A-EP=1,2,3,4,5,6 B-IP=1,5 C-VT=5',
  ],
  [
    '1.3',
    [
      'Inbound traffic to the card data environment is restricted',
      'Outbound traffic from the card data environment is restricted',
      'Wireless networks are separated from the card data environment',
    ],
    'C A-EP:2 B-IP:2 C-VT:1',
  ],
  [
    '1.4',
    [
      'Controls sit between trusted and untrusted networks',
      'Inbound traffic from untrusted networks is limited',
      'Spoofed source addresses are blocked',
      'Stored card data is not reachable directly from untrusted networks',
      'Internal addresses are disclosed only to authorised parties',
    ],
    'C A-EP:3 B-IP:1 C-VT:2',
  ],
  ['1.5', ['Devices that join both trusted and untrusted networks are protected'], 'C C-VT'],
  ['2.1', POLICY('secure configuration'), 'C A-EP C-VT:1'],
  [
    '2.2',
    [
      'Hardening standards exist for every system type',
      'Vendor default accounts are removed or their passwords changed',
      'Functions with different security levels are kept apart',
      'Only services the system needs are enabled',
      'Insecure services are justified and secured',
      'Security settings are configured to prevent misuse',
      'Administrative access is encrypted',
    ],
    'C A-EP A=2 B-IP=2,7 C-VT=1,2,3,4,5,6 P2PE=2 SPoC=2 B=2',
  ],
  [
    '2.3',
    [
      'Wireless vendor defaults are changed before use',
      'Wireless keys are changed when people who know them leave',
    ],
    'C B-IP',
  ],
  ['3.1', POLICY('stored account data'), 'C A-EP:1 B:1 C-VT:1 SPoC:1'],
  [
    '3.2',
    ['Stored account data is kept to a minimum and deleted on schedule'],
    'C A-EP B B-IP C-VT P2PE SPoC',
  ],
  [
    '3.3',
    [
      'Sensitive authentication data is not kept after authorisation',
      '1.1 Full track data is never kept',
      '1.2 Card verification codes are never kept',
      '1.3 PIN data is never kept',
      'Sensitive data held before authorisation is encrypted',
      'Issuers storing sensitive data have a documented business need',
    ],
    'C:4 A-EP:4 B:4 B-IP:4 C-VT:4 P2PE:1 SPoC:4',
  ],
  [
    '3.4',
    [
      'Card numbers are masked when displayed',
      'Copying card numbers over remote access is prevented',
    ],
    'C B B-IP C-VT:1',
  ],
  [
    '3.5',
    [
      'Stored card numbers are made unreadable',
      '1.1 Hashes of card numbers are keyed',
      '1.2 Disk-level encryption is used only on removable media',
      '1.3 Disk encryption access is managed apart from the operating system',
    ],
    'C:1',
  ],
  [
    '3.6',
    [
      'Cryptographic keys are protected against disclosure and misuse',
      '!1.1 The key management architecture is documented',
      '1.2 Secret keys are stored in approved forms',
      '1.3 Access to keys is limited to the fewest custodians',
      '1.4 Keys are stored in the fewest possible places',
    ],
    '',
  ],
  [
    '3.7',
    [
      'Keys are generated strongly',
      'Keys are distributed securely',
      'Keys are stored securely',
      'Keys are changed at the end of their cryptoperiod',
      'Retired or weakened keys are withdrawn',
      'Manual key operations use split knowledge',
      'Unauthorised key substitution is prevented',
      'Key custodians acknowledge their duties',
      '!Keys shared with customers come with guidance on their use',
    ],
    '',
  ],
  ['4.1', POLICY('encryption in transit'), 'C A-EP C-VT:1 B-IP:1'],
  [
    '4.2',
    [
      'Strong cryptography protects card data on open networks',
      '1.1 Trusted keys and certificates are inventoried',
      '1.2 Wireless networks carrying card data use strong cryptography',
      'Card numbers sent through messaging tools are secured',
    ],
    'C A-EP:2 B:4 B-IP=1,4 C-VT=1,4 P2PE=4 SPoC=4',
  ],
  ['5.1', POLICY('anti-malware'), 'C A-EP C-VT:1'],
  [
    '5.2',
    [
      'Anti-malware runs on systems at risk',
      'Anti-malware finds and removes known malware',
      'Systems without anti-malware are reviewed for new threats',
      '?3.1 The review frequency follows a targeted risk analysis',
    ],
    'C A-EP:2 C-VT:3',
  ],
  [
    '5.3',
    [
      'Anti-malware is kept up to date',
      'Anti-malware scans or analyses continuously',
      '?2.1 The scan frequency follows a targeted risk analysis',
      'Removable media are scanned when inserted',
      'Anti-malware logs are kept',
      'Users cannot disable anti-malware without approval',
    ],
    'C=1,2,6 A-EP=1,2,6 C-VT=1,2,4,6',
  ],
  ['5.4', ['Staff are protected against phishing'], 'C A-EP C-VT'],
  ['6.1', POLICY('secure systems and software'), 'C A-EP:1'],
  [
    '6.2',
    [
      'Bespoke software is developed securely',
      'Developers are trained at least once a year',
      'Code is reviewed before release',
      '3.1 Manual code reviews are approved by someone else',
      'Engineering techniques prevent common software attacks',
    ],
    'A-EP',
  ],
  [
    '6.3',
    [
      'Security weaknesses are found and ranked by risk',
      'An inventory of bespoke software components is kept',
      'Security patches are installed in time',
    ],
    'C=1,3 A-EP A=3 B=3 B-IP=1,3 C-VT SPoC=3',
  ],
  [
    '6.4',
    [
      'Public web applications are shielded from attacks',
      'An automated solution detects attacks on public web applications',
      'Scripts on payment pages are approved and checked',
    ],
    'A-EP',
  ],
  [
    '6.5',
    [
      'Changes to production systems follow change procedures',
      'Security controls are confirmed after a significant change',
      'Pre-production and production environments are separated',
      'Duties are separated between environments',
      'Live card numbers are not used for testing',
      'Test data and accounts are removed before release',
    ],
    'A-EP:3',
  ],
  ['7.1', POLICY('access control'), 'C A-EP C-VT:1'],
  [
    '7.2',
    [
      'An access model is defined by job function',
      'Access follows least privilege',
      'Privileges are approved by authorised people',
      'Accounts and privileges are reviewed every six months',
      'System accounts get only the access they need',
      '5.1 Access of system accounts is reviewed periodically',
      'Query access to stored card data is restricted',
    ],
    'C:6 A-EP:5 C-VT:3 B:2 B-IP:2',
  ],
  [
    '7.3',
    [
      'An access control system is in place',
      'The access control system enforces job-based privileges',
      'The access control system denies by default',
    ],
    'A-EP:1 C-VT:2',
  ],
  ['8.1', POLICY('identification and authentication'), 'C A-EP C-VT:1'],
  [
    '8.2',
    [
      'Every user has a unique ID',
      'Shared accounts are used only by exception',
      '!Remote access to customer premises uses unique credentials',
      'Account changes are authorised',
      'Access of people who leave is revoked at once',
      'Inactive accounts are removed within 90 days',
      'Remote access of third parties is enabled only when needed',
      'Idle sessions time out after 15 minutes',
    ],
    'C A-EP A=1,2,5 B-IP=1,5 SPoC=1,5 C-VT=1,2,4,5,6,8',
  ],
  [
    '8.3',
    [
      'Strong authentication for every user',
      'Credentials are unreadable in transit and in storage',
      'Identity is verified before credentials are changed',
      'Repeated failed logins lock the account',
      'Initial passwords are unique and changed at first use',
      'Passwords meet length and complexity rules',
      'Recent passwords cannot be reused',
      'Authentication rules are communicated to users',
      'Passwords used as the only factor are changed every 90 days',
      '!Customers are told how and when to change passwords',
      '!?10.1 Customer passwords are changed or analysed regularly',
      'Tokens and smart cards are assigned to one user',
    ],
    'C A-EP A=1,5,6,7,8,9 SPoC=1 C-VT=1,2,4,5,6,7,9',
  ],
  [
    '8.4',
    [
      'Multi-factor for administrative access to card data systems',
      'Multi-factor for all access to card data systems',
      'Multi-factor for remote network access',
    ],
    'C A-EP A=1 B-IP=3 C-VT=1,3',
  ],
  ['8.5', ['Multi-factor systems resist replay and cannot be bypassed'], 'A-EP'],
  [
    '8.6',
    [
      'Interactive use of system accounts is controlled',
      'Passwords are not hard-coded in scripts or files',
      'Passwords of system accounts are protected',
    ],
    '',
  ],
  ['9.1', POLICY('physical security'), 'C A-EP:1 B:1 B-IP:1 C-VT:1 P2PE:1 SPoC:1 A:1'],
  [
    '9.2',
    [
      'Entry controls limit physical access',
      '1.1 Sensitive areas are watched by cameras or access logs',
      'Publicly reachable network jacks are restricted',
      'Access to network equipment is restricted',
      'Consoles in sensitive areas are locked when unattended',
    ],
    'C:3 A-EP:1 B:1 C-VT:1',
  ],
  [
    '9.3',
    [
      'Staff and visitors are told apart by defined procedures',
      '1.1 Access to sensitive areas is authorised and revoked promptly',
      'Visitors are authorised and escorted',
      'Visitor badges expire and are returned',
      'A visitor log is kept',
    ],
    'C:3',
  ],
  [
    '9.4',
    [
      'Media with card data are physically secured',
      '1.1 Offline backups are kept secure',
      '1.2 The backup location is reviewed yearly',
      'Media are classified by sensitivity',
      'Media sent outside are tracked and sent securely',
      'Management approves moving media outside',
      'Inventories of electronic media are kept',
      '5.1 Media inventories are checked yearly',
      'Paper with card data is destroyed when no longer needed',
      'Electronic media with card data are destroyed when no longer needed',
    ],
    'C A-EP=1,4,5,6,9 A=1,4,5,6,9 B=1,4,5,6,9 B-IP=1,4,5,6,9 C-VT=1,4,5,6,9 P2PE=1,4,5,6,9 SPoC=1,4,5,6,9',
  ],
  [
    '9.5',
    [
      'Payment terminals are protected from tampering',
      '1.1 A list of payment terminals is kept',
      '1.2 Payment terminals are inspected for tampering',
      '1.3 Staff are trained to spot tampered terminals',
    ],
    'C B B-IP P2PE SPoC',
  ],
  ['10.1', POLICY('logging and monitoring'), 'C A-EP'],
  [
    '10.2',
    [
      'Audit logs are enabled for every system component',
      '1.1 Access to card data is logged',
      '1.2 Actions of administrators are logged',
      '1.3 Access to audit logs is logged',
      '1.4 Failed logins are logged',
      '1.5 Changes to credentials are logged',
      '1.6 Starting and stopping of logs is logged',
      '1.7 Creation and deletion of system objects is logged',
      'Log entries carry the details needed to trace events',
    ],
    'C:3 A-EP:4',
  ],
  [
    '10.3',
    [
      'Read access to audit logs is limited',
      'Audit logs are protected from change',
      'Audit logs are backed up to a central server',
      'Changes to audit logs are detected',
    ],
    'C:2 A-EP:2',
  ],
  [
    '10.4',
    [
      'Security events are reviewed at least daily',
      '?1.1 Log reviews are automated',
      'Other logs are reviewed periodically',
      '2.1 The review frequency follows a targeted risk analysis',
      'Exceptions found in reviews are followed up',
    ],
    'C:1 A-EP=1,3,5',
  ],
  ['10.5', ['Audit logs are kept for at least twelve months'], 'C A-EP'],
  [
    '10.6',
    [
      'System clocks are synchronised',
      'Time settings come from trusted sources',
      'Time settings are protected',
    ],
    'C:1 A-EP:1',
  ],
  [
    '10.7',
    [
      '!Failures of critical controls are detected and reported',
      'Failures of critical security controls are detected quickly',
      'Failures of security controls are responded to promptly',
    ],
    '',
  ],
  ['11.1', POLICY('security testing'), 'C A-EP C-VT:1'],
  [
    '11.2',
    [
      'Unauthorised wireless access points are detected',
      'Authorised wireless access points are listed',
    ],
    'C',
  ],
  [
    '11.3',
    [
      'Internal vulnerability scans run every quarter',
      '?1.1 Lower-risk findings are handled on a defined schedule',
      '?1.2 Internal scans are authenticated',
      '1.3 Internal scans run after significant changes',
      'An approved vendor runs external scans every quarter',
      '2.1 External scans run after significant changes',
    ],
    'C A-EP A=5,6 B-IP=5,6 C-VT=1,5',
  ],
  [
    '11.4',
    [
      'A penetration testing method is defined and used',
      'Internal penetration tests run yearly',
      'External penetration tests run yearly',
      'Exploitable findings are corrected and retested',
      'Segmentation controls are tested yearly',
      '!Segmentation is tested every six months',
      '!Multi-tenant providers support customers in external testing',
    ],
    'C:4 A-EP:3',
  ],
  [
    '11.5',
    [
      'Intrusion detection watches network traffic',
      '!1.1 Covert malware channels are detected',
      'Changes to critical files are detected',
    ],
    'C:1 A-EP:1',
  ],
  ['11.6', ['Unauthorised changes to payment pages are detected'], 'A-EP'],
  [
    '12.1',
    [
      'An information security policy is published and shared',
      'The security policy is reviewed at least once a year',
      'Security roles of all staff are defined',
      'An executive is responsible for information security',
    ],
    'A=1,3 A-EP B=1,3 B-IP=1,3 C C-VT=1,3 P2PE=1,3 SPoC=1,3',
  ],
  ['12.2', ['Acceptable use of end-user technologies is defined'], 'C A-EP'],
  [
    '12.3',
    [
      'Targeted risk analyses are documented',
      'Customised approaches are backed by a risk analysis',
      'Cipher suites and protocols in use are reviewed yearly',
      'Hardware and software in use are reviewed yearly',
    ],
    'C=1,3,4 A-EP=1,3,4 C-VT=1 B=1 SPoC=1 A=1',
  ],
  [
    '12.4',
    [
      '!An executive is accountable for protecting card data',
      '!Staff follow security duties, checked every quarter',
      '!2.1 Results of the quarterly checks are documented',
    ],
    '',
  ],
  [
    '12.5',
    [
      'An inventory of in-scope system components is kept',
      'Scope is confirmed at least once a year',
      '!2.1 Scope is confirmed every six months',
      '!Scope is reviewed after organisational changes',
    ],
    'C:2 A-EP:2',
  ],
  [
    '12.6',
    [
      'A security awareness program is in place',
      'The awareness program is reviewed yearly',
      'Staff are trained at hire and at least yearly',
      '?3.1 Training covers phishing and social engineering',
      '3.2 Training covers acceptable use of technologies',
    ],
    'C A-EP:3 B:3 B-IP:3 C-VT:3 SPoC:3 P2PE:1 A:1',
  ],
  ['12.7', ['Staff with access to card data are screened before hire'], ''],
  [
    '12.8',
    [
      'Third-party service providers are listed',
      'Written agreements with providers cover security duties',
      'Providers are checked before engagement',
      'Compliance of providers is monitored yearly',
      'Duties shared with each provider are recorded',
    ],
    'A B B-IP C C-VT A-EP P2PE SPoC',
  ],
  [
    '12.9',
    [
      '!The provider confirms its security duties in writing to customers',
      '!The provider supports customers with compliance information',
    ],
    '',
  ],
  [
    '12.10',
    [
      'An incident response plan is ready to use',
      'The incident response plan is reviewed and tested yearly',
      'Responders are available around the clock',
      'Responders are trained',
      '?4.1 The training frequency follows a targeted risk analysis',
      'The plan covers alerts from security monitoring',
      'The plan is updated with lessons learned',
      'The plan covers card numbers found where not expected',
    ],
    'A=1 B=1,2 B-IP=1 C C-VT:3 A-EP:4 P2PE:3 SPoC:3',
  ],
  [
    'A1.1',
    [
      "Customers' environments are logically separated",
      'Customers can reach only their own environment',
      'Customers can use only their own resources',
      'Separation between customers is tested every six months',
    ],
    'SP',
  ],
  [
    'A1.2',
    [
      "Each customer's audit logs are kept and available to it",
      'Forensic investigations of a customer are supported',
      'Customers can report suspected incidents',
    ],
    'SP',
  ],
]

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
