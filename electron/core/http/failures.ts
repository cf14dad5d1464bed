// What a failed request becomes: axios's errors (a status, a broken or refused connection, a
// deadline, a cancel, a size limit) turned into AppFailures, and a write that may have been done
// all the same said so.
import axios, { type AxiosResponse } from 'axios'
import type { OperationDef } from '@contract/catalog/types'
import { AppFailure } from '@contract/errors'
import { errorFromResponse } from './answers'
import type { Connection } from './connection'
import { ServiceFailure, transportFailure, type Redact } from './errors'

/**
 * True when a request failed after a successful status arrived: the body broke off (the
 * connection was reset mid-answer). axios attaches that 2xx response to the error; it is a
 * broken connection, not the service refusing anything.
 */
function brokenAnswer(err: unknown): boolean {
  if (!axios.isAxiosError(err) || !err.response) return false
  return err.response.status >= 200 && err.response.status < 300
}

/**
 * The service answered with a success status but its body broke off before the end. The
 * connection is what failed (OFFLINE: a read falls back to its copy, the connectivity badge
 * hears of it), and the message says the service did answer.
 */
function cutShort(host: string, status: number): ServiceFailure {
  return new ServiceFailure({
    code: 'OFFLINE',
    status,
    message: `The service at ${host} answered (status ${status}), but its answer broke off before the end, so ScanDesk could not read it. An unsteady connection or a proxy in between may be the cause; try again.`,
  })
}

/** Transport errors raised before a request leaves ScanDesk: the service saw nothing. */
const NOT_SENT =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|ENETDOWN|EHOSTDOWN|CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_TLS|ERR_SSL|ERR_CERT|HOSTNAME_MISMATCH)/

/**
 * The failure of a signed-in user's write (not idempotent) whose request may have reached the
 * service before the connection broke or timed out: its message says the change may have been
 * made, so the user checks before sending it again (which could make it twice). Other failures
 * (and sign-in, which is simply tried again) pass unchanged.
 */
export function unsureWrite(failure: AppFailure, err: unknown, op: OperationDef, host: string) {
  const { code } = failure.error
  if (op.idempotent || op.auth !== 'user') return failure
  if (code === 'OFFLINE' && brokenAnswer(err))
    return new ServiceFailure({
      ...failure.error,
      message: `The service at ${host} accepted the request (status ${failure.error.status}), but its answer broke off before the end, so “${op.summary}” was most likely done. Check before trying again.`,
    })
  if (code !== 'OFFLINE' && code !== 'TIMEOUT') return failure
  if (!axios.isAxiosError(err) || (!brokenAnswer(err) && NOT_SENT.test(err.code ?? '')))
    return failure
  const what =
    code === 'TIMEOUT'
      ? `The service at ${host} did not answer in time`
      : `The connection to ${host} broke before the service’s answer arrived`
  return new ServiceFailure({
    ...failure.error,
    message: `${what}, so “${op.summary}” may have been done all the same. Check before trying again.`,
  })
}

/**
 * The AppFailure of a failed request: an error answer read (`errorFromResponse`, redacted), a
 * body that broke off as a reset, the call's deadline or a cancel as such, the size limits as
 * TOO_LARGE, any other transport error as `transportFailure` says.
 */
export function translateFailure(
  conn: Connection,
  err: unknown,
  deadlineHit: boolean,
  cancelled: boolean,
  redact: Redact,
): AppFailure {
  const { host, limits } = conn
  if (err instanceof AppFailure) return err
  if (!axios.isAxiosError(err))
    return new ServiceFailure({
      code: 'INTERNAL',
      message: 'The request failed inside ScanDesk.',
    })
  if (cancelled) return transportFailure(err.code, host, 'cancelled')
  if (brokenAnswer(err))
    return deadlineHit
      ? transportFailure('ECONNRESET', host, 'deadline')
      : cutShort(host, err.response!.status)
  if (err.response)
    return errorFromResponse(err.response as AxiosResponse<string>, redact, limits.retryAfterCapMs)
  if (deadlineHit) return transportFailure(err.code, host, 'deadline')
  if (err.code === 'ERR_CANCELED') return transportFailure(err.code, host, 'cancelled')
  if (/maxContentLength/.test(err.message))
    return new ServiceFailure({
      code: 'TOO_LARGE',
      message: `The answer from the service is larger than the ${Math.round(limits.maxContentLength / 1048576)} MiB limit.`,
    })
  if (/maxBodyLength/.test(err.message) || err.code === 'ERR_FR_MAX_BODY_LENGTH_EXCEEDED')
    return new ServiceFailure({
      code: 'TOO_LARGE',
      message: 'The request is larger than ScanDesk sends in one call.',
    })
  return transportFailure(err.code, host, null)
}
