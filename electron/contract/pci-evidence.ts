import { z } from 'zod'
import { accountId } from './accounts'
import type { LedgerEntry } from './files'
import { requirementNumber } from './saq'
import { idParam } from './schemas/common'

/*
 * Attaching the service's own data to a PCI requirement of an SAQ as evidence (issue 20 §3): a
 * report's PDF downloaded and verified with the service, or a CSV of the findings behind the
 * requirement (the list's every page, written by ScanDesk). Either becomes the requirement's
 * evidence file, with its SHA-256 and its origin, listed with that origin in the audit bundle's
 * manifest.
 */

const saqFields = {
  accountId,
  /** The SAQ's id, or its local draft key before it was submitted. */
  saqKey: idParam,
  saqName: z.string().trim().min(1).max(200),
  saqType: z.string().trim().min(1).max(40),
  saqStatus: z.enum(['draft', 'approved']).optional(),
  requirement: requirementNumber,
}

/** Inputs of the PCI evidence channels. */
export const pciEvidenceInputs = {
  'saq.evidence.attachReport': z.strictObject({ ...saqFields, reportId: idParam }),
  'saq.evidence.attachFindings': z.strictObject(saqFields),
}

/** Outputs of the PCI evidence channels: the new evidence entry. */
export interface PciEvidenceOutputs {
  'saq.evidence.attachReport': LedgerEntry
  'saq.evidence.attachFindings': LedgerEntry
}
