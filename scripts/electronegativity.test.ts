import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { acceptedOf, compare, findingsOf } from './electronegativity'

const CSV = `issue, severity, confidence, filename, location, sample, description, url
CSP_GLOBAL_CHECK,"LOW","FIRM","renderer/index.html","5:0","default-src 'self'","CSP",https://x
OPEN_EXTERNAL_JS_CHECK,"MEDIUM","TENTATIVE","electron/main/window.ts","23:36","if (safe) void shell.openExternal(safe)","Review, really",https://x
PRELOAD_JS_CHECK,"MEDIUM","FIRM","electron/main/window.ts","61:6","preload: options.preloadPath,","Review ""preload"" scripts",https://x
LIMIT_NAVIGATION_GLOBAL_CHECK,"HIGH","CERTAIN","N/A","0:0",N/A,"Missing navigation limits",https://x
`

describe('reading Electronegativity findings', () => {
  it('reads quoted CSV fields with commas, doubled quotes and line breaks', () => {
    const csv = `${CSV}AUXCLICK_JS_CHECK,"MEDIUM","FIRM","out/renderer/a.js","1:2","say ""hi"", then
go on","Review",https://x
`
    const all = findingsOf(csv)
    expect(all).toHaveLength(4)
    expect(all.at(-1)).toEqual({
      check: 'AUXCLICK_JS_CHECK',
      severity: 'MEDIUM',
      file: 'out/renderer/a.js',
      sample: 'say "hi", then\ngo on',
    })
  })

  it('keeps HIGH and MEDIUM findings only', () => {
    expect(findingsOf(CSV).map((f) => [f.check, f.severity, f.file])).toEqual([
      ['OPEN_EXTERNAL_JS_CHECK', 'MEDIUM', 'electron/main/window.ts'],
      ['PRELOAD_JS_CHECK', 'MEDIUM', 'electron/main/window.ts'],
      ['LIMIT_NAVIGATION_GLOBAL_CHECK', 'HIGH', 'N/A'],
    ])
  })

  it('fails a finding nobody justified, and a justification whose finding is gone', () => {
    const accepted = acceptedOf(`
| Check | File | Flagged code | Why |
| --- | --- | --- | --- |
| OPEN_EXTERNAL_JS_CHECK | electron/main/window.ts | \`shell.openExternal(safe)\` | https only |
| PRELOAD_JS_CHECK | electron/main/window.ts | \`preload: options.preloadPath\` | sandboxed |
| AUXCLICK_JS_CHECK | electron/main/window.ts | \`new BrowserWindow(\` | fixed since |
`)
    const { unlisted, stale } = compare(findingsOf(CSV), accepted)
    expect(unlisted.map((f) => f.check)).toEqual(['LIMIT_NAVIGATION_GLOBAL_CHECK'])
    expect(stale.map((a) => a.check)).toEqual(['AUXCLICK_JS_CHECK'])
  })

  it('does not let a justification of one file cover the same check elsewhere', () => {
    const accepted = acceptedOf('| PRELOAD_JS_CHECK | electron/main/other.ts | `preload:` | x |')
    expect(compare(findingsOf(CSV), accepted).unlisted.map((f) => f.check)).toContain(
      'PRELOAD_JS_CHECK',
    )
  })

  it('reads the table of docs/security.md', () => {
    const accepted = acceptedOf(readFileSync(join(__dirname, '..', 'docs', 'security.md'), 'utf8'))
    expect(accepted.length).toBeGreaterThan(0)
    for (const a of accepted) {
      expect(a.check).toMatch(/^[A-Z_]+_CHECK$/)
      expect(a.file).toMatch(/^electron\/|^renderer\/|^N\/A$/)
      expect(a.sample.length).toBeGreaterThan(0)
    }
  })
})
