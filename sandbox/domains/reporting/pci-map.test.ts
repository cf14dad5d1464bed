import { describe, expect, it } from 'vitest'
import { SAQ_TYPES, knownVersions, requirementsFor } from './saq-templates'
import { PCI_REQUIREMENT_DATA, pciDataFor, type PciDataKind } from '@contract/pci/requirements'

/** Every template the sandbox has: each type in each version its SAQs may carry. */
const templates = SAQ_TYPES.flatMap((t) =>
  knownVersions(t.code).map((version) => ({
    code: t.code,
    version,
    requirements: requirementsFor(t.code, version),
  })),
)

/** What a requirement's title must speak of for the data to fit it. */
const FITS: Record<string, RegExp> = {
  '11.3.1': /internal .*scans.* quarter/i,
  '11.3.2': /external scans .*quarter/i,
  '6.3.3': /patches/i,
}

describe('the PCI requirement map against the sandbox templates', () => {
  it('names each requirement once, as a requirement number', () => {
    const numbers = PCI_REQUIREMENT_DATA.map((d) => d.requirement)
    expect(new Set(numbers).size).toBe(numbers.length)
    for (const n of numbers) expect(n).toMatch(/^\d{1,2}(\.\d{1,2}){2,3}$/)
  })

  it('finds every mapped requirement in at least one template, with a title that fits', () => {
    for (const data of PCI_REQUIREMENT_DATA) {
      const holders = templates.filter((t) =>
        t.requirements.some((r) => r.number === data.requirement),
      )
      expect(holders.length, data.requirement).toBeGreaterThan(0)
      const fits = FITS[data.requirement]
      if (!fits) continue
      for (const t of holders) {
        const title = t.requirements.find((r) => r.number === data.requirement)!.title
        expect(title, `${t.code} ${t.version} ${data.requirement}`).toMatch(fits)
      }
    }
  })

  it('gives the data to every template requirement with a mapped number', () => {
    let given = 0
    for (const t of templates)
      for (const r of t.requirements) {
        const data = pciDataFor(r.number)
        if (!PCI_REQUIREMENT_DATA.some((d) => d.requirement === r.number)) {
          expect(data, `${t.code} ${r.number}`).toBeUndefined()
          continue
        }
        expect(data?.requirement).toBe(r.number)
        given++
      }
    expect(given).toBeGreaterThan(templates.length)
  })

  it('knows which templates hold the external quarterly scans (11.3.2)', () => {
    const holders = templates
      .filter((t) => t.requirements.some((r) => r.number === '11.3.2'))
      .map((t) => `${t.code} ${t.version}`)
    expect(holders.sort()).toEqual(
      [
        'A 4.0.1',
        'A 4.0',
        'A-EP 4.0.1',
        'A-EP 4.0',
        'B-IP 4.0.1',
        'B-IP 4.0',
        'C 4.0.1',
        'C 4.0',
        'C-VT 4.0.1',
        'C-VT 4.0',
        'D-Merchant 4.0.1',
        'D-Merchant 4.0',
        'D-Service Provider 4.0.1',
        'D-Service Provider 4.0',
      ].sort(),
    )
  })

  it('gives each kind of data the scope it needs', () => {
    const scoped: Record<PciDataKind, boolean> = {
      quarterly_runs: true,
      rescans: true,
      aged_findings: false,
    }
    for (const d of PCI_REQUIREMENT_DATA) expect(d.scope !== null).toBe(scoped[d.kind])
    expect(pciDataFor('11.3.1')?.scope).toBe('internal')
    expect(pciDataFor('11.3.2')?.scope).toBe('external')
    expect(pciDataFor('11.3.2.1')?.kind).toBe('rescans')
    expect(pciDataFor('11.3.1.1')?.scope).toBe('internal')
  })
})
