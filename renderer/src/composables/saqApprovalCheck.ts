import { ref } from 'vue'
import type { SaqEvidenceFile } from '@contract/catalog/saq'
import type { LedgerEntry } from '@contract/files'
import {
  approvalConcerns,
  approvalNote,
  IN_PLACE_ANSWERS,
  type ApprovalConcern,
  type EvidenceFacts,
} from '@contract/pci/approval-check'
import { findingsQuery, pciDataFor } from '@contract/pci/requirements'
import type { SaqAnswer, SaqTemplateLike } from '@contract/saq'
import { toAppError } from '@/data/errors'
import { fetchOperation } from '@/data/fetchOperation'
import { useAppStore } from '@/stores/app'
import { useConfirmStore } from '@/stores/confirm'
import { approvalQuestion, type SummaryField } from '@/composables/saqApproval'
import type { SaqDraft } from '@/composables/saqDraft'
import { readPciRuns } from './pciRuns'
import { useSaqFiles } from './saq'

/** The file's own name from a path of either kind of computer. */
const baseName = (p: string) => p.split(/[\\/]/).pop() || p

/**
 * The evidence files of an SAQ as its approval lists them (name, SHA-256, size, origin, when
 * attached), in the ledger's order; a file without a requirement is left out.
 */
export function approvalEvidence(entries: readonly LedgerEntry[]): SaqEvidenceFile[] {
  return entries
    .filter((e) => e.kind === 'saq_evidence' && !!e.saq?.requirement)
    .map((e) => ({
      requirement: e.saq!.requirement!,
      name: baseName(e.path).slice(0, 255),
      sha256: e.sha256,
      size: e.size,
      origin: e.origin
        ? { operation: e.origin.operation, resource_id: e.origin.resourceId, query: e.origin.query }
        : null,
      attached_at: e.downloadedAt,
    }))
}

/**
 * The check made before approving (issue 36 §12): the service's data behind the mapped
 * requirements answered In Place is read afresh — 6.3.3's aged findings, the runs of 11.3.x —
 * and every answer it contradicts, or that could not be checked, and every empty remediation is
 * named (`approvalConcerns`). Only what the answers need is read.
 */
export function useApprovalCheck() {
  const app = useAppStore()
  const checking = ref(false)

  async function check(
    template: SaqTemplateLike,
    answers: ReadonlyMap<string, Pick<SaqAnswer, 'response' | 'explanation'>>,
  ): Promise<ApprovalConcern[]> {
    const accountId = app.accountId
    const now = new Date()
    const mapped = [...answers.entries()]
      .filter(([, a]) => IN_PLACE_ANSWERS.includes(a.response))
      .map(([n]) => pciDataFor(n))
      .filter((d) => !!d)
    const facts: EvidenceFacts = { now, agedFindings: null, runs: null, unread: {} }
    const aged = mapped.find((d) => d.kind === 'aged_findings')
    if (aged && accountId)
      try {
        const line = findingsQuery(aged, now)
        const query = { ...line, per_page: 1 }
        const answer = await fetchOperation(accountId, 'vulnerabilities.list', { query })
        facts.agedFindings = {
          total: answer.data.meta?.pagination?.total_count ?? answer.data.data.length,
          before: String(line.first_seen_before),
        }
      } catch (err) {
        facts.unread!.findings = toAppError(err).message
      }
    if (mapped.some((d) => d.kind !== 'aged_findings') && accountId)
      try {
        const read = await readPciRuns(
          accountId,
          app.account?.release,
          now,
          new AbortController().signal,
        )
        facts.runs = read.runs
      } catch (err) {
        facts.unread!.runs = toAppError(err).message
      }
    return approvalConcerns(template, answers, facts)
  }

  const confirm = useConfirmStore()
  const files = useSaqFiles()

  /**
   * Checks a submitted draft's answers, lists its evidence files and asks the approval's question
   * (`approvalQuestion`): confirmed, the evidence and the note to send; declined, where to go back
   * to (the first concern's requirement, or the first empty part of the executive summary).
   */
  async function ask(
    d: SaqDraft,
    saqId: string,
    answers: ReadonlyMap<string, Pick<SaqAnswer, 'response' | 'explanation'>>,
  ): Promise<
    | { error: string }
    | { confirmed: true; evidence: SaqEvidenceFile[]; note: string | null }
    | { confirmed: false; goTo: { requirement?: string; summary?: SummaryField } | null }
  > {
    checking.value = true
    const concerns = await check(d.template, answers).finally(() => (checking.value = false))
    checking.value = true
    const listed = await files.listEvidence(saqId).finally(() => (checking.value = false))
    if (!listed.ok)
      return {
        error: `The evidence files, which the approved PDF lists, could not be read: ${listed.error.message}`,
      }
    const evidence = approvalEvidence(listed.data)
    const { request, empty } = approvalQuestion(d, concerns, evidence.length)
    if (await confirm.ask(request))
      return { confirmed: true, evidence, note: approvalNote(concerns, new Date()) }
    const first = concerns[0]?.requirement
    return {
      confirmed: false,
      goTo: first ? { requirement: first } : empty.length ? { summary: empty[0] } : null,
    }
  }

  return { check, checking, ask }
}
