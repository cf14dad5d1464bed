import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findOperation } from '@contract/catalog'
import { RELEASES } from '@contract/releases'
import { RESOURCES } from '@/resources'
import {
  coverageByRelease,
  reachedOperations,
  recordedCoverage,
  registryOperations,
  renderCoverage,
} from './ui-coverage'

const DOC = join(__dirname, '..', '..', 'docs', 'ui-coverage.md')

describe('UI coverage', () => {
  it('names only catalog operations in the registry', () => {
    for (const r of RESOURCES)
      for (const id of registryOperations(r))
        expect(findOperation(id), `${r.key}: ${id}`).toBeDefined()
  })

  it('reaches the operations of every registry entry in some release', () => {
    for (const r of RESOURCES)
      for (const id of registryOperations(r))
        expect(findOperation(id)!.releases.length, `${r.key}: ${id}`).toBeGreaterThan(0)
  })

  it('does not fall below what docs/ui-coverage.md recorded, and records the new state', () => {
    const reached = reachedOperations()
    const now = coverageByRelease(reached)
    const before = existsSync(DOC) ? recordedCoverage(readFileSync(DOC, 'utf8')) : {}
    for (const release of RELEASES)
      expect(now[release].reached, `release ${release}`).toBeGreaterThanOrEqual(
        before[release] ?? 0,
      )
    const text = renderCoverage(reached)
    if (!existsSync(DOC) || readFileSync(DOC, 'utf8') !== text) writeFileSync(DOC, text)
    expect(recordedCoverage(text)).toEqual(
      Object.fromEntries(RELEASES.map((r) => [r, now[r].reached])),
    )
  })
})
