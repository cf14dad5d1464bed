import { describe, expect, it } from 'vitest'
import { findOperation } from '@contract/catalog'
import { ServiceFailure } from './errors'
import { missingOperation } from './missing-operation'

const notFound = (detail: string | null) =>
  new ServiceFailure(
    { code: 'NOT_FOUND', status: 404, message: 'The service could not find that record.' },
    detail,
  )

describe('a 404 read as a missing operation', () => {
  it('is one for an operation without path parameters, naming the release', () => {
    const out = missingOperation(notFound(null), findOperation('advanced_reports.list')!, 'latest')
    expect(out?.error).toMatchObject({ code: 'RELEASE_MISMATCH', status: 404 })
    expect(out?.error.message).toContain('release latest')
  })

  it('is one for a record path only when the service says it has no such route', () => {
    const show = findOperation('targets.show')!
    expect(
      missingOperation(notFound('Couldn’t find target with id tgt-9'), show, 'latest'),
    ).toBeNull()
    expect(missingOperation(notFound(null), show, 'latest')).toBeNull()
    expect(
      missingOperation(notFound('No route for GET /v2/targets/tgt-9'), show, 'latest')?.error.code,
    ).toBe('RELEASE_MISMATCH')
  })

  it('is not one for an operation whose body names a record, unless the service says so', () => {
    const impersonate = findOperation('auth.impersonate')!
    expect(missingOperation(notFound('There is no user usr-999'), impersonate, 'latest')).toBeNull()
    expect(
      missingOperation(notFound('No route for POST /auth/impersonate'), impersonate, 'latest')
        ?.error.code,
    ).toBe('RELEASE_MISMATCH')
  })

  it('leaves every other failure alone', () => {
    const list = findOperation('advanced_reports.list')!
    const forbidden = new ServiceFailure({ code: 'FORBIDDEN', status: 403, message: 'no' })
    expect(missingOperation(forbidden, list, 'latest')).toBeNull()
    expect(missingOperation(new Error('x'), list, 'latest')).toBeNull()
  })
})
