import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Row } from '../../types'
import { fileAnswer, readAll, syntheticSha256 } from './files'

function syntheticRow(size: number): Row {
  return {
    id: 'rpt-900',
    type: 'report',
    attributes: { name: 'huge', created_at: '2025-01-01T00:00:00Z' },
    internal: { organization_id: 'org-001', synthetic_size: size },
  }
}

describe('test-only huge report files', () => {
  it('stream exactly the synthetic size, PDF header first, the same bytes every time', async () => {
    const size = 3 * 64 * 1024 + 123
    const file = fileAnswer(syntheticRow(size), 'pdf', 'report-rpt-900')!
    expect(file.size).toBe(size)
    expect(typeof file.body).toBe('function')
    const first = await readAll(file)
    const second = await readAll(file)
    expect(first.length).toBe(size)
    expect(first.subarray(0, 9).toString('latin1')).toBe('%PDF-1.4\n')
    expect(first.equals(second)).toBe(true)
    // Chunks differ from each other (not one block repeated).
    expect(
      first.subarray(64 * 1024, 64 * 1024 + 12).equals(first.subarray(128 * 1024, 128 * 1024 + 12)),
    ).toBe(false)
  })

  it('has a digest equal to the SHA-256 of the streamed bytes, computed once', async () => {
    const row = syntheticRow(200_000)
    const bytes = await readAll(fileAnswer(row, 'csv', 'x')!)
    const expected = createHash('sha256').update(bytes).digest('hex')
    expect(await syntheticSha256(row, 'csv', 200_000)).toBe(expected)
    expect(await syntheticSha256(row, 'csv', 200_000)).toBe(expected)
    expect(await syntheticSha256(row, 'pdf', 200_000)).not.toBe(expected)
  })
})
