import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { defineOperation } from '@contract/catalog/types'
import { ALL_RELEASES, LATEST_ONLY } from '@contract/releases'
import { anyObject, byId } from '@contract/schemas/common'
import { createRouter } from './router'

const op = (id: string, method: 'GET' | 'PUT' | 'DELETE', path: string, latest = false) =>
  defineOperation({
    id,
    group: 'scans',
    method,
    path,
    pathParams: path.includes('{sub_id}')
      ? z.strictObject({ id: z.string(), sub_id: z.string() })
      : path.includes('{id}')
        ? byId
        : undefined,
    response: anyObject,
    releases: latest ? LATEST_ONLY : ALL_RELEASES,
    summary: id,
    source: 'decided',
    sandbox: { kind: 'custom' },
  })

const ops = [
  op('scans.show', 'GET', '/v2/scans/{id}'),
  op('scans.running', 'GET', '/v2/scans/running'),
  op('scans.delete', 'DELETE', '/v2/scans/{id}'),
  op('scans.hosts_show', 'GET', '/v2/scans/{id}/hosts/{sub_id}'),
  op('scans.running_hosts', 'GET', '/v2/scans/running/hosts'),
  op('scans.scan_profiles', 'GET', '/v2/scans/scan_profiles', true),
]

describe('the catalog router', () => {
  const router = createRouter(ops, 'latest')

  it('prefers literal segments and falls back to parameters', () => {
    expect(router.match('GET', '/v2/scans/running')).toMatchObject({ op: { id: 'scans.running' } })
    expect(router.match('GET', '/v2/scans/scn-001')).toMatchObject({
      op: { id: 'scans.show' },
      params: { id: 'scn-001' },
    })
    // `running` is also a valid id when the literal branch has no matching end.
    expect(router.match('GET', '/v2/scans/running/hosts/hst-1')).toMatchObject({
      op: { id: 'scans.hosts_show' },
      params: { id: 'running', sub_id: 'hst-1' },
    })
    expect(router.match('DELETE', '/v2/scans/running')).toMatchObject({
      op: { id: 'scans.delete' },
    })
  })

  it('decodes path segments and answers 404 for unknown or malformed paths', () => {
    expect(router.match('GET', '/v2/scans/a%20b')).toMatchObject({ params: { id: 'a b' } })
    expect(router.match('GET', '/v2/scans/%E0%A4%A')).toEqual({ kind: 'not_found', reason: 'path' })
    expect(router.match('GET', '/v2/nothing')).toEqual({ kind: 'not_found', reason: 'path' })
    expect(router.match('GET', '/v2/scans//hosts/x')).toEqual({ kind: 'not_found', reason: 'path' })
  })

  it('answers 405 with the allowed methods', () => {
    expect(router.match('PUT', '/v2/scans/scn-1')).toEqual({
      kind: 'method_not_allowed',
      allow: ['GET', 'DELETE'],
    })
  })

  it('hides operations outside the release', () => {
    expect(router.match('GET', '/v2/scans/scan_profiles')).toMatchObject({ kind: 'op' })
    const old = createRouter(ops, '5.3.0')
    expect(old.match('GET', '/v2/scans/scan_profiles')).toEqual({
      kind: 'not_found',
      reason: 'release',
    })
  })

  it('refuses two operations on the same method and path shape', () => {
    expect(() =>
      createRouter([...ops, op('scans.other', 'GET', '/v2/scans/{id}')], 'latest'),
    ).toThrow(/share GET/)
  })
})
