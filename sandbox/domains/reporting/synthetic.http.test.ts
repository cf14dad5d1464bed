import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operations } from '@contract/catalog/index'
import { testDomain } from '../../engine/testing'
import { startSandboxWith, type RunningSandbox } from '../../server'
import type { SandboxDomain } from '../../types'
import { addSyntheticReport } from './files'
import { reportingDomain } from './index'
import { call } from './test-harness'

const SIZE = 24 * 1024 * 1024 + 17

// Seeds one huge report after the reporting domain (as a benchmark would).
const huge: SandboxDomain = {
  name: 'huge-report',
  collections: {},
  handlers: {},
  seed: (ctx) => void addSyntheticReport(ctx, { size: SIZE }),
}

describe('a huge synthetic report over HTTP', () => {
  let sb: RunningSandbox
  let token: string
  let id: string

  beforeAll(async () => {
    sb = await startSandboxWith(
      { port: 0, log: () => {} },
      { operations, domains: [testDomain, reportingDomain, huge] },
    )
    token = sb.sessionFor('analyst@sandbox.test')
    const list = await call(sb, 'GET', '/v2/reports?sort=-id&per_page=1', { token })
    id = list.json.data[0].id
  })
  afterAll(() => sb.close())

  it('streams every byte with the PDF header first, and the service agrees on the digest', async () => {
    const res = await fetch(`${sb.baseUrl}/v2/reports/${id}/download?format=pdf`, {
      headers: { 'x-api-key': sb.apiKey, authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
    expect(Number(res.headers.get('content-length'))).toBe(SIZE)
    const hash = createHash('sha256')
    let size = 0
    let head = ''
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (size === 0) head = Buffer.from(chunk).subarray(0, 8).toString('latin1')
      size += chunk.length
      hash.update(chunk)
    }
    expect(head).toBe('%PDF-1.4')
    expect(size).toBe(SIZE)
    const digest = hash.digest('hex')
    const exists = await call(sb, 'GET', `/v2/reports/${id}/file_exists?format=pdf`, { token })
    expect(exists.json.data).toMatchObject({ exists: true, size: SIZE, sha256: digest })
    const verify = await call(sb, 'POST', `/v2/reports/${id}/verify_hash`, {
      token,
      body: { format: 'pdf', sha256: digest },
    })
    expect(verify.json.data.match).toBe(true)
  })
})
