// The stylesheet's severity variables are the palette whose contrast the renderer's tests check
// (renderer/src/components/kit/severity.test.ts): read here, in Node, from the file itself.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SEVERITIES, SEVERITY_PALETTE, SEVERITY_TEXT } from '@/components/kit/severity'

const css = readFileSync(
  join(__dirname, '..', '..', 'renderer', 'src', 'styles', 'app.css'),
  'utf8',
)

/** The declarations of the first rule for `selector`. */
function rule(selector: string): string {
  const start = css.indexOf(`${selector} {`)
  expect(start, selector).toBeGreaterThanOrEqual(0)
  return css.slice(start, css.indexOf('}', start))
}

describe('the severity colours of the stylesheet', () => {
  it.each([
    ['light', ':root'],
    ['dark', 'html.dark'],
  ] as const)('are the %s palette under %s', (theme, selector) => {
    const declared = rule(selector)
    for (const s of SEVERITIES)
      expect(declared).toContain(`--sd-severity-${s}: ${SEVERITY_PALETTE[theme][s]};`)
    expect(declared).toContain(`--sd-severity-text: ${SEVERITY_TEXT[theme]};`)
  })

  it('fill a dark tag of each severity, its words in the text colour (a rule, not a style a tag)', () => {
    expect(rule('.el-tag.el-tag--dark[data-severity]')).toContain(
      '--el-tag-text-color: var(--sd-severity-text);',
    )
    for (const s of SEVERITIES) {
      const declared = rule(`.el-tag.el-tag--dark[data-severity='${s}']`)
      expect(declared).toContain(`--el-tag-bg-color: var(--sd-severity-${s});`)
      expect(declared).toContain(`--el-tag-border-color: var(--sd-severity-${s});`)
    }
  })
})
