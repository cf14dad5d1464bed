// Every catalog operation of the latest release, sent to the real sandbox (all domains) with its
// catalog example: it must succeed with the documented status and a body its schema accepts,
// refuse an unknown query parameter (422) and refuse a request without x-api-key (401); a write
// leaves its event in the audit log.
import { describe, expect, it } from 'vitest'
import { operations } from '@contract/catalog/index'
import type { OperationDef } from '@contract/catalog/types'
import { RELEASES } from '@contract/releases'
import { actionOf, GROUP_RESOURCE_TYPES } from '../../sandbox/domains/reporting/audit-writes'
import { createRouter } from '../../sandbox/engine/router'
import type { RunningSandbox } from '../../sandbox/server'
import { useSandboxAndCore } from './fixture'

const latest = operations.filter((op) => op.releases.includes('latest'))

/** The example's URL: path placeholders filled (encoded), query appended. */
function urlOf(
  sb: RunningSandbox,
  op: OperationDef,
  extraQuery: Record<string, string> = {},
): string {
  const params = op.example.path ?? {}
  const path = op.path.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => {
    if (params[name] === undefined)
      throw new Error(`${op.id}: example has no path parameter ${name}`)
    return encodeURIComponent(params[name])
  })
  const query = new URLSearchParams()
  for (const [k, v] of Object.entries(op.example.query ?? {})) query.set(k, String(v))
  for (const [k, v] of Object.entries(extraQuery)) query.set(k, v)
  const qs = query.toString()
  return `${sb.baseUrl}${path}${qs ? `?${qs}` : ''}`
}

async function send(
  sb: RunningSandbox,
  op: OperationDef,
  opts: { apiKey?: boolean; token?: string; extraQuery?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = {}
  if (opts.apiKey !== false) headers['x-api-key'] = sb.apiKey
  if (opts.token) headers.authorization = `Bearer ${opts.token}`
  let body: string | undefined
  if (op.example.body !== undefined) {
    body = JSON.stringify(op.example.body)
    headers['content-type'] = 'application/json'
  }
  return fetch(urlOf(sb, op, opts.extraQuery), { method: op.method, headers, body })
}

/** How many audit events name `action` (read by an administrator who sees every organization). */
async function eventsOf(sb: RunningSandbox, action: string): Promise<number> {
  const res = await fetch(`${sb.baseUrl}/v2/audit?per_page=1&action=${action}`, {
    headers: {
      'x-api-key': sb.apiKey,
      authorization: `Bearer ${sb.sessionFor('demo@sandbox.test')}`,
    },
  })
  const body = (await res.json()) as { meta: { pagination: { total_count: number } } }
  return body.meta.pagination.total_count
}

describe('catalog coverage against the sandbox', () => {
  const s = useSandboxAndCore({ each: 'none' })

  it('routes every operation of every release to itself (and nothing outside a release)', () => {
    for (const release of RELEASES) {
      const router = createRouter(operations, release)
      for (const op of operations) {
        const path = op.path.replace(/\{[A-Za-z_]+\}/g, (m) => `p-${m.length}`)
        const hit = router.match(op.method, path)
        if (op.releases.includes(release)) {
          expect(hit, `${op.id} in ${release}`).toMatchObject({ kind: 'op', op: { id: op.id } })
        } else {
          expect(hit, `${op.id} in ${release}`).toEqual({ kind: 'not_found', reason: 'release' })
        }
      }
    }
  })

  it.each(latest.map((op) => [op.id, op] as const))('%s', async (_id, op) => {
    s.sandbox.reset()
    const token = op.auth === 'user' ? s.sandbox.sessionFor('admin@sandbox.test') : undefined

    // The refusals come first: they are answered before any handler runs, so the state the
    // example meets is still the fresh seed (one reset per operation keeps the suite fast).
    const bogus = await send(s.sandbox, op, { token, extraQuery: { bogus: '1' } })
    const bogusBody = await bogus.text()
    expect(bogus.status, `${op.id} with bogus=1: ${bogusBody.slice(0, 300)}`).toBe(422)
    expect(JSON.parse(bogusBody).fields?.bogus, op.id).toBeDefined()

    const noKey = await send(s.sandbox, op, { apiKey: false, token })
    await noKey.arrayBuffer()
    expect(noKey.status, `${op.id} without x-api-key`).toBe(401)

    const audited = op.method !== 'GET' && !op.computeOnly
    const bulk = op.id.endsWith('.bulk_delete')
    const action = bulk ? `${GROUP_RESOURCE_TYPES[op.group]}.delete` : actionOf(op.id, op.group)
    const before = audited ? await eventsOf(s.sandbox, action) : 0

    const res = await send(s.sandbox, op, { token })
    const text = op.responseKind === 'json' ? await res.text() : ''
    if (op.responseKind === 'file') await res.arrayBuffer()
    expect(res.status, `${op.id} answered ${res.status}: ${text.slice(0, 500)}`).toBe(
      op.successStatus,
    )
    if (op.responseKind === 'json') {
      const parsed = op.response.safeParse(text ? JSON.parse(text) : undefined)
      expect(
        parsed.success,
        `${op.id} answer does not match its schema:\n${parsed.error ? JSON.stringify(parsed.error.issues, null, 2) : ''}\nbody: ${text.slice(0, 500)}`,
      ).toBe(true)
    } else {
      expect(res.headers.get('content-disposition'), op.id).toMatch(/^attachment; filename="/)
      expect(Number(res.headers.get('content-length')), op.id).toBeGreaterThan(0)
    }
    if (audited) {
      const touched = bulk
        ? (JSON.parse(text) as { data: { deleted: string[] } }).data.deleted
        : [0]
      expect(await eventsOf(s.sandbox, action), `${op.id} in the audit log as ${action}`).toBe(
        before + touched.length,
      )
    }
  })
})
