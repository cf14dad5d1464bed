import type { AxiosResponse } from 'axios'
import { describe, expect, it } from 'vitest'
import { findOperation } from '@contract/catalog/index'
import { AppFailure } from '@contract/errors'
import { addValidatorHeaders, conditionalStatus, readOutcome } from './conditional'

const op = findOperation('scans.upcoming')!

function response(status: number, data: string, headers: Record<string, unknown> = {}) {
  return { status, data, headers } as unknown as AxiosResponse<string>
}

describe('the validators of a local copy', () => {
  it('are sent as If-None-Match and If-Modified-Since, only those the copy has', () => {
    const both: Record<string, string> = { Accept: 'application/json' }
    addValidatorHeaders(both, { etag: '"v1"', lastModified: 'Tue, 01 Jul 2025 10:00:00 GMT' })
    expect(both).toEqual({
      Accept: 'application/json',
      'If-None-Match': '"v1"',
      'If-Modified-Since': 'Tue, 01 Jul 2025 10:00:00 GMT',
    })
    const etagOnly: Record<string, string> = {}
    addValidatorHeaders(etagOnly, { etag: '"v2"', lastModified: null })
    expect(etagOnly).toEqual({ 'If-None-Match': '"v2"' })
    const none: Record<string, string> = {}
    addValidatorHeaders(none, null)
    expect(none).toEqual({})
  })

  it('make 304 an answer, besides any 2xx', () => {
    expect([200, 204, 299, 304].map(conditionalStatus)).toEqual([true, true, true, true])
    expect([199, 300, 301, 404, 500].map(conditionalStatus)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ])
  })
})

describe('reading a conditional answer', () => {
  it('says "your copy is current" for a 304, with the validators the service sent', () => {
    const outcome = readOutcome(op, response(304, '', { etag: '"v1"' }), false)
    expect(outcome).toEqual({
      notModified: true,
      data: undefined,
      warnings: [],
      tolerated: [],
      etag: '"v1"',
      lastModified: null,
    })
  })

  it('checks a 200 like any answer and keeps its validators', () => {
    const ok = readOutcome(
      op,
      response(200, '{"data":[]}', {
        'content-type': 'application/json',
        etag: '"v2"',
        'last-modified': 'Tue, 01 Jul 2025 10:00:00 GMT',
      }),
      false,
    )
    expect(ok).toMatchObject({
      notModified: false,
      data: { data: [] },
      etag: '"v2"',
      lastModified: 'Tue, 01 Jul 2025 10:00:00 GMT',
    })
    const page = response(200, '<html></html>', { 'content-type': 'text/html', etag: '"v3"' })
    expect(() => readOutcome(op, page, false)).toThrow(AppFailure)
  })

  it('keeps no validator longer than 512 characters, nor one that is not text', () => {
    const long = `"${'x'.repeat(511)}"`
    const outcome = readOutcome(
      op,
      response(304, '', { etag: long, 'last-modified': ['a', 'b'] }),
      false,
    )
    expect(outcome.etag).toBeNull()
    expect(outcome.lastModified).toBeNull()
    const fits = `"${'x'.repeat(510)}"`
    expect(readOutcome(op, response(304, '', { etag: fits }), false).etag).toBe(fits)
  })
})
