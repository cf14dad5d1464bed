import type { SaqAnswer, SaqResponse } from '@contract/saq'
import type { Row } from '../../types'
import { saqTemplate, type SaqTemplate } from './saq-templates'

/** One stored answer (absent parts are null; legal_exception is false unless set). */
export interface StoredAnswer {
  requirement: string
  response: SaqResponse
  explanation: string | null
  ccw: Record<string, string> | null
  action_plan: { action?: string; owner?: string; due_date?: string } | null
  legal_exception: boolean
  answered_at: string
}

/** An answer as a request body carries it (already checked by the catalog's `saqAnswer`). */
export type AnswerInput = SaqAnswer

/** A stored answer in the shape the shared rules read (nulls become absent). */
export function ruleAnswer(a: StoredAnswer): SaqAnswer {
  return {
    requirement: a.requirement,
    response: a.response,
    ...(a.explanation != null ? { explanation: a.explanation } : {}),
    ...(a.ccw ? { ccw: a.ccw } : {}),
    ...(a.action_plan ? { action_plan: a.action_plan } : {}),
    ...(a.legal_exception ? { legal_exception: true } : {}),
  }
}

/** The answers keyed by requirement number, in the shape of the shared rules. */
export function answerMap(answers: StoredAnswer[]): Map<string, SaqAnswer> {
  return new Map(answers.map((a) => [a.requirement, ruleAnswer(a)]))
}

/** Stores an input answer. */
export function storedAnswer(a: AnswerInput, at: string): StoredAnswer {
  const ccw = a.ccw && Object.keys(a.ccw).length ? (a.ccw as Record<string, string>) : null
  const plan = a.action_plan && Object.keys(a.action_plan).length ? a.action_plan : null
  return {
    requirement: a.requirement,
    response: a.response,
    explanation: a.explanation ? a.explanation : null,
    ccw,
    action_plan: plan,
    legal_exception: a.response === 'not_in_place' && a.legal_exception === true,
    answered_at: at,
  }
}

/** The stored answers of an SAQ row. */
export function answersOf(row: Row): StoredAnswer[] {
  return (row.attributes.answers as StoredAnswer[] | undefined) ?? []
}

/** The template an SAQ row was answered against. */
export function templateOfRow(row: Row): SaqTemplate {
  const version = row.attributes.template_version
  return saqTemplate(
    String(row.attributes.saq_type),
    typeof version === 'string' && version ? version : undefined,
  )
}
