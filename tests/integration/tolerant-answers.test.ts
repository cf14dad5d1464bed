// Issue 12, weakness 8, through the core against the sandbox: a proxy in front of it changes one
// answer the way a real deployment might (a display field of another type, a row without a usable
// id); the view still gets the page, the odd rows marked, a warning to show once, and the log
// names the fields, never their values. What main acts on stays strict.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiCallOutput } from '@contract/channels'
import { ROW_MARK } from '../../electron/core/http/tolerant'
import {
  addAnalyst,
  startRecordedSandbox,
  startTestCore,
  type RecordedSandbox,
} from './core-helpers'
import { startHttpProxy, type HttpProxy } from '../support/http-proxy'

const SECRET_NAME = 'Do not log me'

let sandbox: RecordedSandbox
let proxy: HttpProxy
let proxyUrl = ''

/** Rewrites GET /v2/targets answers: row 0's name becomes an object, row 1's id a number. */
function rewrite(body: string): string {
  const answer = JSON.parse(body) as {
    data: { id: unknown; attributes: Record<string, unknown> }[]
  }
  answer.data[0].attributes.name = { text: SECRET_NAME }
  answer.data[1].id = 12345
  return JSON.stringify(answer)
}

beforeAll(async () => {
  sandbox = await startRecordedSandbox()
  proxy = await startHttpProxy(sandbox.baseUrl, {
    rewrite: (req, answer) =>
      req.method === 'GET' && req.url?.startsWith('/v2/targets?') && answer.statusCode === 200
        ? rewrite
        : null,
  })
  proxyUrl = proxy.baseUrl
})
afterAll(async () => {
  await proxy.close()
  await sandbox.close()
})

describe('an answer that does not quite fit', () => {
  it('reaches the view with the odd rows marked and one warning; the log names fields only', async () => {
    const t = await startTestCore()
    try {
      const account = await addAnalyst(t, { baseUrl: proxyUrl, apiKey: sandbox.apiKey })
      const out = await t.ok<ApiCallOutput>('api.call', {
        accountId: account.id,
        op: 'targets.list',
        input: { query: { per_page: 10 } },
      })
      const rows = (out.data as { data: Record<string, unknown>[] }).data
      expect(rows).toHaveLength(10)
      expect(rows[0]).toMatchObject({
        attributes: { name: JSON.stringify({ text: SECRET_NAME }) },
        [ROW_MARK]: { asText: ['attributes.name'] },
      })
      expect(rows[1]).toMatchObject({ id: 12345, [ROW_MARK]: { partial: true } })
      expect(rows[2]).not.toHaveProperty(ROW_MARK)
      expect(out.warnings).toEqual([
        '1 row had a field of another type than expected (attributes.name): shown as text.',
        '1 row did not fit what ScanDesk expects and is shown as sent, marked.',
      ])
      const logged = t.logs.filter((l) => l.includes('read tolerantly'))
      expect(logged).toEqual([
        'warn targets.list: answer read tolerantly at data[].attributes.name, data[] (whole row)',
      ])
      expect(t.logs.join('\n')).not.toContain(SECRET_NAME)

      // Served from the offline copy, the warnings come along.
      await t.ok('connectivity.setWorkOffline', { on: true })
      const copy = await t.ok<ApiCallOutput>('api.call', {
        accountId: account.id,
        op: 'targets.list',
        input: { query: { per_page: 10 } },
      })
      expect(copy).toMatchObject({ fromCache: true, warnings: out.warnings })
    } finally {
      await t.close()
    }
  })
})
