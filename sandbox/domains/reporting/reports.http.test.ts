import { createHash } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { operationsOf } from '@contract/catalog/index'
import type { RunningSandbox } from '../../server'
import { call, download, startReportingSandbox } from './test-harness'

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

describe('report files over HTTP', () => {
  let sb: RunningSandbox
  let admin: string
  let analyst: string

  beforeAll(async () => {
    sb = await startReportingSandbox()
  })
  afterAll(() => sb.close())
  beforeEach(() => {
    sb.reset()
    admin = sb.sessionFor('admin@sandbox.test')
    analyst = sb.sessionFor('analyst@sandbox.test')
  })

  it('serves a seeded PDF whose SHA-256 equals the one in the report and in file_exists', async () => {
    const file = await download(sb, '/v2/reports/rpt-001/download?format=pdf', admin)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('application/pdf')
    expect(file.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(file.bytes.subarray(-6).toString('latin1')).toBe('%%EOF\n')
    const show = await call(sb, 'GET', '/v2/reports/rpt-001', { token: admin })
    expect(show.json.data.attributes.files.pdf).toMatchObject({
      status: 'ready',
      size: file.bytes.length,
      sha256: sha(file.bytes),
    })
    const exists = await call(sb, 'GET', '/v2/reports/rpt-001/file_exists?format=pdf', {
      token: admin,
    })
    expect(exists.json.data).toMatchObject({
      exists: true,
      status: 'ready',
      sha256: sha(file.bytes),
    })
    const again = await download(sb, '/v2/reports/rpt-001/download?format=pdf', admin)
    expect(again.bytes.equals(file.bytes)).toBe(true)
  })

  it('serves a CSV with one CRLF line per finding', async () => {
    const file = await download(sb, '/v2/reports/rpt-002/download?format=csv', analyst)
    expect(file.status).toBe(200)
    const lines = file.bytes.toString('utf8').split('\r\n')
    expect(lines[0]).toBe('report_id,severity,cvss,finding,cve,host,port')
    const show = await call(sb, 'GET', '/v2/reports/rpt-002', { token: analyst })
    expect(lines.length - 2).toBe(show.json.data.attributes.findings_count)
  })

  it('generates a file: 404 and exists=false until the sandbox clock passes ~3 s', async () => {
    expect((await download(sb, '/v2/reports/rpt-011/download?format=pdf', admin)).status).toBe(404)
    const gen = await call(sb, 'PUT', '/v2/reports/rpt-011/generate', {
      token: admin,
      body: { format: 'pdf' },
    })
    expect(gen.status).toBe(202)
    expect(gen.json.data).toEqual({ id: 'rpt-011', format: 'pdf', status: 'generating' })
    const before = await call(sb, 'GET', '/v2/reports/rpt-011/file_exists?format=pdf', {
      token: admin,
    })
    expect(before.json.data).toMatchObject({ exists: false, status: 'generating' })
    expect((await download(sb, '/v2/reports/rpt-011/download?format=pdf', admin)).status).toBe(404)
    sb.advanceClock(3_100)
    const after = await call(sb, 'GET', '/v2/reports/rpt-011/file_exists?format=pdf', {
      token: admin,
    })
    expect(after.json.data).toMatchObject({ exists: true, status: 'ready' })
    const file = await download(sb, '/v2/reports/rpt-011/download?format=pdf', admin)
    expect(file.status).toBe(200)
    expect(sha(file.bytes)).toBe(after.json.data.sha256)
    // Asking again for a ready file changes nothing.
    const regen = await call(sb, 'PUT', '/v2/reports/rpt-011/generate', {
      token: admin,
      body: { format: 'pdf' },
    })
    expect(regen.json.data.status).toBe('ready')
  })

  it('compares hashes: match for the right digest, no match for another one', async () => {
    const file = await download(sb, '/v2/reports/rpt-003/download?format=pdf', admin)
    const right = await call(sb, 'POST', '/v2/reports/rpt-003/verify_hash', {
      token: admin,
      body: { format: 'pdf', sha256: sha(file.bytes) },
    })
    expect(right.status).toBe(200)
    expect(right.json.data.match).toBe(true)
    const wrong = await call(sb, 'POST', '/v2/reports/rpt-003/verify_hash', {
      token: admin,
      body: { format: 'pdf', sha256: sha(Buffer.from('something else')) },
    })
    expect(wrong.json.data.match).toBe(false)
    const malformed = await call(sb, 'POST', '/v2/reports/rpt-003/verify_hash', {
      token: admin,
      body: { format: 'pdf', sha256: 'ABC' },
    })
    expect(malformed.status).toBe(422)
    const missing = await call(sb, 'POST', '/v2/reports/rpt-011/verify_hash', {
      token: admin,
      body: { format: 'pdf', sha256: sha(file.bytes) },
    })
    expect(missing.status).toBe(404)
  })

  it("keeps another organization's reports out of reach", async () => {
    const customer = sb.sessionFor('customer@globex.test')
    expect((await download(sb, '/v2/reports/rpt-001/download?format=pdf', customer)).status).toBe(
      404,
    )
    const list = await call(sb, 'GET', '/v2/reports?per_page=100', { token: customer })
    expect(list.json.data.map((r: { id: string }) => r.id)).toEqual(['rpt-018', 'rpt-017'])
    expect((await download(sb, '/v2/reports/rpt-017/download?format=pdf', analyst)).status).toBe(
      404,
    )
  })

  it('discards the files of an advanced report when it is changed', async () => {
    const ready = await download(sb, '/v2/advanced_reports/adr-001/download?format=pdf', admin)
    expect(ready.status).toBe(200)
    const upd = await call(sb, 'PUT', '/v2/advanced_reports/adr-001', {
      token: admin,
      body: { sections: ['summary', 'findings'] },
    })
    expect(upd.json.data.attributes).toMatchObject({ status: 'pending', files: {} })
    expect(
      (await download(sb, '/v2/advanced_reports/adr-001/download?format=pdf', admin)).status,
    ).toBe(404)
    await call(sb, 'PUT', '/v2/advanced_reports/adr-001/generate', {
      token: admin,
      body: { format: 'pdf' },
    })
    sb.advanceClock(3_100)
    const show = await call(sb, 'GET', '/v2/advanced_reports/adr-001', { token: admin })
    const file = await download(sb, '/v2/advanced_reports/adr-001/download?format=pdf', admin)
    expect(sha(file.bytes)).toBe(show.json.data.attributes.files.pdf.sha256)
    expect(file.bytes.equals(ready.bytes)).toBe(false)
  })

  it('answers every catalog example of the reporting groups as the catalog says', async () => {
    const groups = [
      'reports',
      'advanced_reports',
      'webhooks',
      'audit',
      'notifications',
      'white_label',
      'saq',
    ] as const
    for (const op of groups.flatMap((g) => operationsOf(g))) {
      sb.reset()
      const token = sb.sessionFor('admin@sandbox.test')
      let path = op.path
      for (const [k, v] of Object.entries(op.example.path ?? {})) path = path.replace(`{${k}}`, v)
      const qs = new URLSearchParams(
        Object.entries(op.example.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString()
      const res = await call(sb, op.method, `${path}${qs ? `?${qs}` : ''}`, {
        token,
        body: op.example.body,
      })
      expect(res.status, `${op.id}: ${res.text.slice(0, 200)}`).toBe(op.successStatus)
      if (op.responseKind === 'json')
        expect(op.response.safeParse(res.json).success, op.id).toBe(true)
    }
  })
})
