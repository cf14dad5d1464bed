// Conditional reads: a GET that sends the validators of a copy held locally and takes "your copy
// is current" (304) as an answer, handing back the ETag / Last-Modified of what it read.
import type { AxiosResponse } from 'axios'
import type { OperationDef } from '@contract/catalog/types'
import { readAnswer } from './answers'

/** Validators of a copy held locally, sent as If-None-Match / If-Modified-Since. */
export interface Validators {
  etag: string | null
  lastModified: string | null
}

/** The outcome of a conditional read: the checked answer, or "your copy is current" (304). */
export type ReadOutcome =
  | ({ notModified: false; data: unknown; warnings: string[]; tolerated: string[] } & Validators)
  | ({ notModified: true; data: undefined; warnings: []; tolerated: [] } & Validators)

/** Adds the request headers of `validators` (those it has) to `headers`. */
export function addValidatorHeaders(
  headers: Record<string, string>,
  validators: Validators | null,
): void {
  if (validators?.etag) headers['If-None-Match'] = validators.etag
  if (validators?.lastModified) headers['If-Modified-Since'] = validators.lastModified
}

/** The statuses a conditional read accepts: any 2xx, and 304. */
export function conditionalStatus(status: number): boolean {
  return (status >= 200 && status < 300) || status === 304
}

/**
 * Reads the answer of a conditional read: notModified for a 304, else the checked answer; either
 * way with the answer's validators (a header over 512 characters is not kept).
 */
export function readOutcome(
  op: OperationDef,
  response: AxiosResponse<string>,
  tolerant: boolean,
): ReadOutcome {
  const header = (name: string) => {
    const value: unknown = response.headers[name]
    return typeof value === 'string' && value.length <= 512 ? value : null
  }
  const fresh = { etag: header('etag'), lastModified: header('last-modified') }
  if (response.status === 304)
    return { notModified: true, data: undefined, warnings: [], tolerated: [], ...fresh }
  const answer = readAnswer(op, response, tolerant)
  return { notModified: false, ...answer, ...fresh }
}
