// The intel.priority channel (issue 37 §3): the priority of up to 200 findings the renderer has on
// screen (a list's page, a finding's page), evaluated by main with the current packs and the
// account's asset context. The renderer sends the facts it already holds (it drew the rows), so
// main asks the service nothing and the answer never waits on the network; main reads only what
// is its own (the packs, the sealed asset context). docs/decisions.md "Fix first: where the
// priority is computed".
import { z } from 'zod'
import { accountId } from '../accounts'
import { idParam } from '../schemas/common'
import type { Feed } from './packs'
import { CVE_ID } from './kev'
import type { Priority } from './priority'

/** At most this many findings per call (a list's page is at most 100 rows). */
export const MAX_PRIORITY_FINDINGS = 200
/** At most this many CVEs per finding. */
export const MAX_FINDING_CVES = 100

const iso = z.iso.datetime({ offset: true, message: 'must be a date and time' })

/** What the renderer knows of one finding: the service's fields, ScanDesk's policy due date. */
export const priorityFinding = z.strictObject({
  id: idParam,
  severity: z.string().trim().toLowerCase().max(16),
  cves: z
    .array(z.string().trim().toUpperCase().regex(CVE_ID, 'must be a CVE identifier'))
    .max(MAX_FINDING_CVES),
  hostAddress: z.string().trim().max(45).nullish(),
  hostName: z.string().trim().max(255).nullish(),
  targetId: idParam.nullish(),
  tags: z.array(z.string().max(64)).max(100).optional(),
  /** ScanDesk's due moment from the account's remediation policy, when known. */
  policyDue: iso.nullish(),
})
export type PriorityFinding = z.infer<typeof priorityFinding>

export const priorityInputs = {
  /**
   * The priority of each finding given (tier, sentence, due date and what set it) and the
   * provenance of the packs it was evaluated with. Read-only; no pack or a stale one reads as
   * unknown.
   */
  'intel.priority': z.strictObject({
    accountId,
    findings: z
      .array(priorityFinding)
      .max(MAX_PRIORITY_FINDINGS, `has more than ${MAX_PRIORITY_FINDINGS} findings`),
  }),
}

/** A pack used, as shown wherever a priority is shown. */
export interface PackProvenance {
  feed: Feed
  /** KEV: catalogVersion; EPSS: model_version. */
  edition: string
  /** KEV: dateReleased; EPSS: score_date. */
  published: string
  sha256: string
  importedAt: string
  stale: boolean
}

/** One finding's priority. */
export type FindingPriority = Priority & { id: string }

export interface PriorityOutputs {
  'intel.priority': {
    /** The current pack of each feed (null: none imported). */
    packs: { kev: PackProvenance | null; epss: PackProvenance | null }
    findings: FindingPriority[]
    /** When it was evaluated (staleness is judged at this moment). */
    at: string
  }
}
