import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call } from '../../engine/testing'
import { startSandbox, type RunningSandbox } from '../../server'
import { pdfString } from './pdf'
import { download } from './test-harness'

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')
/** Whether the PDF prints `text` as one line (its literal string). */
const prints = (pdf: Buffer, text: string) => pdf.toString('latin1').includes(pdfString(text))

describe('the report PDF names the target', () => {
  let sb: RunningSandbox
  let admin: string
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, log: () => {} })
    admin = sb.sessionFor('admin@sandbox.test')
  })
  afterAll(() => sb?.close())

  const report = async (id: string) =>
    (await call(sb, 'GET', `/v2/reports/${id}`, { token: admin })).json.data.attributes
  const targetName = async (id: string) =>
    (await call(sb, 'GET', `/v2/targets/${id}`, { token: admin })).json.data.attributes.name

  it('prints the target’s name beside its id, and the scan’s', async () => {
    const a = await report('rpt-001')
    const pdf = (await download(sb, '/v2/reports/rpt-001/download?format=pdf', admin)).bytes
    expect(prints(pdf, `Target: ${await targetName(a.target_id)} (${a.target_id})`)).toBe(true)
    expect(pdf.toString('latin1')).not.toContain(pdfString(`Target: ${a.target_id}`))
    expect(pdf.toString('latin1')).toMatch(/\(Scan: [^()\\]+ \\\(scn-\d{3}\\\)\)/)
  })

  it('keeps the name it was generated with, so the digest still matches after a rename', async () => {
    const a = await report('rpt-001')
    const before = await targetName(a.target_id)
    const renamed = await call(sb, 'PUT', `/v2/targets/${a.target_id}`, {
      token: admin,
      body: { name: 'Renamed after the report' },
    })
    expect(renamed.status).toBe(200)
    const pdf = (await download(sb, '/v2/reports/rpt-001/download?format=pdf', admin)).bytes
    expect(prints(pdf, `Target: ${before} (${a.target_id})`)).toBe(true)
    expect(sha(pdf)).toBe((await report('rpt-001')).files.pdf.sha256)
  })

  it('prints the name the target has when the file is first made', async () => {
    const pending = (
      await call(sb, 'GET', '/v2/reports?status=pending&per_page=1', { token: admin })
    ).json.data[0]
    const target = pending.attributes.target_id
    await call(sb, 'PUT', `/v2/targets/${target}`, { token: admin, body: { name: 'Fresh name' } })
    await call(sb, 'PUT', `/v2/reports/${pending.id}/generate`, {
      token: admin,
      body: { format: 'pdf' },
    })
    sb.advanceClock(3_100)
    const file = await download(sb, `/v2/reports/${pending.id}/download?format=pdf`, admin)
    expect(file.status).toBe(200)
    expect(prints(file.bytes, `Target: Fresh name (${target})`)).toBe(true)
  })
})

describe('a state saved before reports kept their targets’ names', () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-names-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('is upgraded on load: the PDF names the target and its digest matches', async () => {
    const file = join(dir, 'state.json')
    const first = await startSandbox({ port: 0, log: () => {}, dataFile: file })
    await first.close()
    // What an earlier sandbox saved: no names kept with the reports, digests of the old text.
    const saved = JSON.parse(readFileSync(file, 'utf8'))
    for (const row of Object.values(saved.state.collections.reports) as {
      internal?: Record<string, unknown>
      attributes: { files: { pdf?: { sha256?: string } } }
    }[]) {
      delete row.internal?.target_names
      if (row.attributes.files.pdf) row.attributes.files.pdf.sha256 = '0'.repeat(64)
    }
    writeFileSync(file, JSON.stringify(saved))
    const second = await startSandbox({ port: 0, log: () => {}, dataFile: file })
    try {
      const token = second.sessionFor('admin@sandbox.test')
      const a = (await call(second, 'GET', '/v2/reports/rpt-001', { token })).json.data.attributes
      const name = (await call(second, 'GET', `/v2/targets/${a.target_id}`, { token })).json.data
        .attributes.name
      const pdf = (await download(second, '/v2/reports/rpt-001/download?format=pdf', token)).bytes
      expect(prints(pdf, `Target: ${name} (${a.target_id})`)).toBe(true)
      expect(sha(pdf)).toBe(a.files.pdf.sha256)
    } finally {
      await second.close()
    }
  })
})
