/**
 * The dashboard's PCI verdict in words, from the widget's answer and what is known about the
 * account's scans: `completed` and `running` are how many scans completed lately and run now
 * (null while not known). Failing findings make it "not compliant" whatever else runs; "compliant"
 * needs a completed scan (no scan has found anything yet otherwise), and running scans may still
 * change it, which it says.
 */
export function pciVerdict(
  answer: { compliant?: boolean; fail?: number } | null,
  completed: number | null,
  running: number | null,
): string {
  if (!answer) return ''
  const pending =
    running && running > 0
      ? ` ${running} running ${running === 1 ? 'scan' : 'scans'} may change this when ${running === 1 ? 'it finishes' : 'they finish'}.`
      : ''
  if (!answer.compliant) return `Not PCI compliant: fix or except the failing findings.${pending}`
  if (completed === 0) return 'PCI compliance not known yet: no scan has completed.'
  return `PCI compliant: no finding fails PCI DSS.${pending}`
}
