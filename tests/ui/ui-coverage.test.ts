import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findOperation, operations } from '@contract/catalog'
import { RELEASES } from '@contract/releases'
import { MAIN_ONLY_OPERATIONS } from '@contract/sessions'
import { RESOURCES } from '@/resources'
import {
  coverageByRelease,
  MAIN_FLOW_CHANNELS,
  mainFlowOperations,
  reachedOperations,
  recordedCoverage,
  registryOperations,
  renderCoverage,
  rendererChannels,
  unreachedOperations,
  viewOperations,
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

  it('reaches every operation of every release from a screen, or lists it as run by main', () => {
    for (const release of RELEASES) expect(unreachedOperations(release), release).toEqual([])
    const now = coverageByRelease(reachedOperations())
    for (const release of RELEASES) expect(now[release].reached).toBe(now[release].total)
  })

  it('lists as main-only exactly the credential operations api.call refuses, all run by main', () => {
    const main = mainFlowOperations()
    for (const id of MAIN_ONLY_OPERATIONS) {
      expect(findOperation(id), id).toBeDefined()
      expect(main.has(id), `${id} is called by main's sign-in and token flows`).toBe(true)
    }
    // A view never names one (it could only be refused).
    const views = viewOperations()
    expect([...MAIN_ONLY_OPERATIONS].filter((id) => views.has(id))).toEqual([])
  })

  it('starts every file flow main runs from a control, through the channel it names', () => {
    const main = mainFlowOperations()
    const channels = rendererChannels()
    for (const [id, channel] of Object.entries(MAIN_FLOW_CHANNELS)) {
      expect(main.has(id), `${id} is called in main`).toBe(true)
      expect(channels.has(channel), `${channel} is called by the renderer`).toBe(true)
    }
    // Only operations that answer files, or their generate and verify steps, run this way.
    for (const id of Object.keys(MAIN_FLOW_CHANNELS))
      expect(operations.find((o) => o.id === id)?.group).toMatch(/^(reports|advanced_reports)$/)
  })

  it('records the state in docs/ui-coverage.md', () => {
    const reached = reachedOperations()
    const now = coverageByRelease(reached)
    const text = renderCoverage(reached)
    if (!existsSync(DOC) || readFileSync(DOC, 'utf8') !== text) writeFileSync(DOC, text)
    expect(recordedCoverage(text)).toEqual(
      Object.fromEntries(RELEASES.map((r) => [r, now[r].reached])),
    )
    for (const id of MAIN_ONLY_OPERATIONS) expect(text).toContain(`\`${id}\``)
  })
})
