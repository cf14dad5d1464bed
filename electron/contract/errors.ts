/** Stable error codes that cross every boundary (IPC, browser bridge, UI). */
export const ERROR_CODES = [
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'VALIDATION',
  'CONFLICT',
  'RATE_LIMITED',
  'OFFLINE',
  'TIMEOUT',
  'SERVER',
  'CANCELLED',
  'NOT_IN_RELEASE',
  'RELEASE_MISMATCH',
  'BAD_RESPONSE',
  'TOO_LARGE',
  'REDIRECT_REFUSED',
  'BAD_REQUEST',
  'UNKNOWN_OPERATION',
  'UNKNOWN_ACCOUNT',
  'NOT_SIGNED_IN',
  'CHALLENGE_EXPIRED',
  'KEYCHAIN_UNAVAILABLE',
  'INTEGRITY_FAILED',
  'DISK_FULL',
  'PERMISSION_DENIED',
  'FILE_NOT_FOUND',
  'NO_FOLDER',
  'CONFIRMATION_REQUIRED',
  'INTERNAL',
] as const

/** One stable error code. */
export type ErrorCode = (typeof ERROR_CODES)[number]

/** Field name (dotted path) → messages. */
export type FieldErrors = Record<string, string[]>

/** An error as data: never a stack, a header or a secret. */
export interface AppError {
  code: ErrorCode
  message: string
  status?: number
  fieldErrors?: FieldErrors
  retryAfterMs?: number
  /**
   * CONFIRMATION_REQUIRED (browser mode, where main has no dialog of its own): what the change
   * would trust, and the phrase the user types to confirm it (sent back as `trustConfirmation`).
   */
  confirmation?: TrustConfirmation
}

/** A change of what main trusts, as the user must confirm it. */
export interface TrustConfirmation {
  /** One sentence per thing trusted (address, certificates with fingerprints, plain http). */
  lines: string[]
  /** What to type, e.g. "trust scanner.example.com". */
  phrase: string
}

/** The outcome of every bridge call. */
export type Result<T> = { ok: true; data: T } | { ok: false; error: AppError }

/** A thrown error that carries an AppError; core code throws it, dispatch turns it into data. */
export class AppFailure extends Error {
  readonly error: AppError
  constructor(error: AppError) {
    super(error.message)
    this.name = 'AppFailure'
    this.error = error
  }
}

/** Shorthand to build and throw an AppFailure. */
export function fail(
  code: ErrorCode,
  message: string,
  extra: Omit<AppError, 'code' | 'message'> = {},
): never {
  throw new AppFailure({ code, message, ...extra })
}

/** True when `value` looks like an AppError (for data coming back over a bridge). */
export function isAppError(value: unknown): value is AppError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AppError).code === 'string' &&
    (ERROR_CODES as readonly string[]).includes((value as AppError).code) &&
    typeof (value as AppError).message === 'string'
  )
}
