import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DATA_FORMAT, writeAtomic } from './persistence'
import { call, startTestSandbox } from './testing'

describe('the --data state file', () => {
  let dir: string
  let file: string

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'))
    file = join(dir, 'state.json')
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('keeps rows and sessions across a restart', async () => {
    const first = await startTestSandbox({ dataFile: file })
    const token = first.sessionFor('analyst@sandbox.test')
    const created = await call(first, 'POST', '/v2/targets', {
      token,
      body: { name: 'Kept', address: '198.51.100.7' },
    })
    expect(created.status).toBe(201)
    await call(first, 'DELETE', '/v2/targets/tgt-003', { token })
    await first.close()

    const saved = JSON.parse(readFileSync(file, 'utf8'))
    expect(saved.format).toBe(DATA_FORMAT)
    // Only token hashes are stored, never the token itself.
    expect(readFileSync(file, 'utf8')).not.toContain(token)

    const second = await startTestSandbox({ dataFile: file })
    try {
      const kept = await call(second, 'GET', '/v2/targets/tgt-061', { token })
      expect(kept.status).toBe(200)
      expect(kept.json.data.attributes.name).toBe('Kept')
      expect((await call(second, 'GET', '/v2/targets/tgt-003', { token })).status).toBe(404)
      const next = await call(second, 'POST', '/v2/targets', {
        token,
        body: { name: 'Next', address: '198.51.100.8' },
      })
      expect(next.json.data.id).toBe('tgt-062')
    } finally {
      await second.close()
    }
    expect(readdirSync(dir)).toEqual(['state.json'])
  })

  it('saves within a moment of a write, leaving no temporary file', async () => {
    const sb = await startTestSandbox({ dataFile: file })
    try {
      const token = sb.sessionFor('admin@sandbox.test')
      await call(sb, 'PUT', '/v2/targets/tgt-001', { token, body: { name: 'Renamed' } })
      await new Promise((r) => setTimeout(r, 600))
      const saved = JSON.parse(readFileSync(file, 'utf8'))
      expect(saved.state.collections.targets['tgt-001'].attributes.name).toBe('Renamed')
      expect(readdirSync(dir)).toEqual(['state.json'])
    } finally {
      await sb.close()
    }
  })

  it('reseeds and saves on reset', async () => {
    const sb = await startTestSandbox({ dataFile: file })
    const token = sb.sessionFor('admin@sandbox.test')
    await call(sb, 'DELETE', '/v2/targets/tgt-001', { token })
    sb.reset()
    await sb.close()
    const saved = JSON.parse(readFileSync(file, 'utf8'))
    expect(saved.state.collections.targets['tgt-001']).toBeDefined()
  })

  it('refuses a corrupt file with a clear error and leaves it untouched', async () => {
    for (const content of ['{ not json', JSON.stringify({ format: DATA_FORMAT, version: 1 })]) {
      writeFileSync(file, content)
      await expect(startTestSandbox({ dataFile: file })).rejects.toThrow(
        /not a valid sandbox state/,
      )
      expect(readFileSync(file, 'utf8')).toBe(content)
    }
  })

  it('replaces a file atomically through a temporary file in the same folder', async () => {
    writeFileSync(file, 'old')
    await writeAtomic(file, 'new contents')
    expect(readFileSync(file, 'utf8')).toBe('new contents')
    expect(readdirSync(dir)).toEqual(['state.json'])
    await expect(writeAtomic(join(dir, 'missing', 'x.json'), 'x')).rejects.toThrow()
    expect(readdirSync(dir)).toEqual(['state.json'])
  })
})
