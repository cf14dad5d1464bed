import type { AppError } from '@contract/errors'

/** A failed call as a thrown value: the query cache keeps it as the entry's error. */
export class OperationError extends Error {
  constructor(readonly appError: AppError) {
    super(appError.message)
    this.name = 'OperationError'
  }
}

/** The user-readable error of anything a query or mutation rejected with. */
export function toAppError(error: unknown): AppError {
  if (error instanceof OperationError) return error.appError
  return {
    code: 'INTERNAL',
    message: error instanceof Error && error.message ? error.message : 'Something went wrong.',
  }
}
