// The canned analyst answer of vulnerabilities.prompt: built from the finding's own fields, no network.
import type { Row } from '../../types'

const TOPICS: [RegExp, (v: Record<string, unknown>) => string][] = [
  [
    /\b(fix|remediat|patch|solution|mitigat|resolve)/i,
    (v) => `Recommended fix: ${v.solution ?? 'no vendor fix is recorded for this finding.'}`,
  ],
  [
    /\b(pci|complian|asv)/i,
    (v) =>
      v.pci_compliant
        ? 'PCI DSS: this finding does not cause an ASV scan failure (CVSS below 4.0).'
        : `PCI DSS: this finding fails an ASV scan (CVSS ${v.cvss_score} is 4.0 or higher); fix it or document a compensating control and an exception.`,
  ],
  [
    /\b(cve|reference|advisor)/i,
    (v) => {
      const cves = (v.cve_ids as string[]) ?? []
      return cves.length
        ? `Related advisories: ${cves.join(', ')}.`
        : 'No CVE identifier is associated with this finding; it is a configuration issue.'
    },
  ],
  [
    /\b(risk|exploit|danger|severe|severity|impact|priorit)/i,
    (v) =>
      `Risk: ${String(v.severity)} (CVSS ${v.cvss_score}${v.cvss_vector ? `, ${v.cvss_vector}` : ''}). ` +
      (Number(v.cvss_score) >= 9
        ? 'Treat it as an emergency: it is remotely exploitable without credentials.'
        : Number(v.cvss_score) >= 7
          ? 'Plan the fix within days; exposure to untrusted networks raises the urgency.'
          : Number(v.cvss_score) >= 4
            ? 'Fix it in the next regular maintenance window.'
            : 'Low priority; review it when hardening the host.'),
  ],
]

/** Answers `question` about the vulnerability row deterministically from its attributes. */
export function prompt(vuln: Row, question: string): string {
  const v = vuln.attributes
  const where = `${String(v.host_ip ?? 'the host')}${v.port ? ` port ${v.port}/${v.protocol}` : ''}`
  const parts = [`"${String(v.title)}" on ${where}.`]
  const matched = TOPICS.filter(([re]) => re.test(question)).map(([, answer]) => answer(v))
  if (matched.length === 0) {
    parts.push(String(v.description ?? ''))
    parts.push(TOPICS[3][1](v))
    parts.push(TOPICS[0][1](v))
  } else {
    parts.push(...matched)
  }
  return parts.filter(Boolean).join(' ')
}
