import { AppFailure, fail } from '@contract/errors'
import { RELEASES, type Release } from '@contract/releases'
import type { ReleaseDetection } from '@contract/sessions'
import { loadCatalog, type Catalog } from '../catalog'
import type { AccountClient } from '../http/client'
import { ServiceFailure } from '../http/errors'
import type { CallInput } from '../http/request'
import { WRONG_API_KEY } from './sign-in'

/*
 * Release detection: a few GET operations whose presence differs between releases are asked
 * for; the service answers 404 for the path of an operation its release lacks (the sandbox
 * routes before it authenticates, so without a session a present operation answers 401).
 * Four probes are needed to tell the five releases apart: scan profiles (latest only), chat
 * history (5.5.x on), credentials (5.4.2 on) and webhooks (5.3.0 on).
 */

/** The operations asked for, newest-only first. */
export const RELEASE_PROBES = [
  'scans.scan_profiles',
  'vulnerabilities.chat_history',
  'credentials.list',
  'webhooks.list',
] as const

/** What one probe showed. */
export type ProbeAnswer =
  | { op: string; seen: 'present' | 'absent'; why: string }
  | { op: string; seen: 'unknown'; why: string }

/** The newest release whose operation set matches every probe that gave an answer, or null. */
export function inferRelease(
  answers: readonly ProbeAnswer[],
  { findOperation }: Pick<Catalog, 'findOperation'>,
): Release | null {
  const known = answers.filter((a) => a.seen !== 'unknown')
  if (!known.length) return null
  for (const release of RELEASES) {
    const fits = known.every((a) => {
      const has = findOperation(a.op)?.releases.includes(release) ?? false
      return has === (a.seen === 'present')
    })
    if (fits) return release
  }
  return null
}

/** Reads a failed probe call: 404 means the release lacks the operation; other answers mean it has it. */
export function answerOfFailure(op: string, err: unknown): ProbeAnswer {
  if (!(err instanceof AppFailure)) return { op, seen: 'unknown', why: 'ScanDesk failed to ask' }
  const { status, message } = err.error
  if (status === 404) return { op, seen: 'absent', why: 'not there (404)' }
  if (status === 401 || status === 403 || status === 405 || status === 422)
    return { op, seen: 'present', why: `there (answered ${status})` }
  return { op, seen: 'unknown', why: `no answer: ${message}` }
}

/** True when the service refused the API key itself (not the session). */
export function apiKeyRefused(err: unknown): boolean {
  return (
    err instanceof ServiceFailure &&
    err.error.status === 401 &&
    /api[\s_-]?key/i.test(err.serviceDetail ?? '')
  )
}

/** A credential sent when there is no session: present operations then answer 401, absent 404. */
export const PROBE_CREDENTIAL = { scheme: 'Bearer', token: 'scandesk-release-probe' } as const

const DEADLINE_MS = 10_000

async function vulnerabilityId(client: AccountClient): Promise<string | null> {
  try {
    const answer = (await client.call(
      'vulnerabilities.list',
      { query: { per_page: 1 } },
      { deadlineMs: DEADLINE_MS },
    )) as { data?: { id?: unknown }[] }
    const id = answer.data?.[0]?.id
    return typeof id === 'string' ? id : null
  } catch {
    return null
  }
}

async function ask(client: AccountClient, op: string, input: CallInput): Promise<ProbeAnswer> {
  try {
    await client.call(op, input, { deadlineMs: DEADLINE_MS })
    return { op, seen: 'present', why: 'there (answered)' }
  } catch (err) {
    if (apiKeyRefused(err)) fail('UNAUTHORIZED', WRONG_API_KEY, { status: 401 })
    return answerOfFailure(op, err)
  }
}

/**
 * Asks the probes with `client` (built for release 'latest', so it refuses none of them).
 * `signedIn` says whether the client carries a real credential: then the chat-history probe
 * needs a real vulnerability (an unknown one would answer 404 in every release).
 */
export async function probeRelease(
  client: AccountClient,
  signedIn: boolean,
): Promise<ReleaseDetection> {
  const answers = await Promise.all(
    RELEASE_PROBES.map(async (op): Promise<ProbeAnswer> => {
      if (op !== 'vulnerabilities.chat_history') return ask(client, op, {})
      const id = signedIn ? await vulnerabilityId(client) : 'release-probe'
      if (!id) return { op, seen: 'unknown', why: 'no vulnerability to ask about' }
      return ask(client, op, { path: { id } })
    }),
  )
  const { findOperation } = await loadCatalog()
  const release = inferRelease(answers, { findOperation })
  const evidence = answers.map((a) => `${findOperation(a.op)?.summary ?? a.op}: ${a.why}`)
  evidence.push(
    release
      ? `The newest release with this set of operations is ${release}.`
      : 'No known release matches these answers.',
  )
  return { release, evidence }
}
