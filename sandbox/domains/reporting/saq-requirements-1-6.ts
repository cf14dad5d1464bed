// The requirement groups of PCI DSS requirements 1 to 6 as the sandbox's SAQ templates take them
// (7 to 12: saq-requirements-7-12.ts).

/*
 * The master table: groups of requirements (x.y), each a list of topics numbered in order
 * (x.y.1, x.y.2 …); a topic of the form '<n> text' gives its own number suffix instead
 * (e.g. '1.1 Full track data is never kept' under 3.3 → 3.3.1.1). Topic prefixes: '!' = only
 * for service providers, '?' = optional (a best practice until its future date).
 * The selection says which shorter types take which topics: 'C' = all, 'C:2' = the first two,
 * 'C=1,3' = the first and third. Both D types take every topic (D for Merchants none with '!').
 */
export type Group = [group: string, topics: string[], selection: string]

export const POLICY = (what: string): string[] => [
  `Policies and procedures for ${what} are documented and kept current`,
  `Roles and responsibilities for ${what} are assigned and understood`,
]

/** Requirements 1 to 6 (network, data, vulnerabilities, software). */
export const REQUIREMENTS_1_TO_6: Group[] = [
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
]
